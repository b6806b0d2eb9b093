import { STORE_DEFAULTS } from './store-constants';

const HEX = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

function color(value: string | null | undefined, fallback: string): string {
  return value && HEX.test(value) ? value : fallback;
}

function channels(hex: string): [number, number, number] {
  const h = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance (WCAG 2). */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The page's lightest background (the shop's --shop-bg): text in the store's colours must read on it too. */
const PAGE_BG_LUMINANCE = luminance(channels('#f8fafc'));
/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

/**
 * The store's colour, darkened just enough (same hue) for white text on it and for it as text on
 * the shop's light background to reach 4.5:1. A light brand colour such as the default sky blue
 * (2.8:1 under white text) would otherwise leave buttons and the header hard to read.
 */
export function readableColor(hex: string): string {
  let rgb = channels(hex);
  for (let i = 0; i < 40 && (PAGE_BG_LUMINANCE + 0.05) / (luminance(rgb) + 0.05) < MIN_CONTRAST; i++) {
    rgb = rgb.map((c) => Math.floor(c * 0.95)) as [number, number, number];
  }
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The store's colours as fields of a store (or its first screen); any may be missing or invalid. */
export interface StoreColors {
  primaryColor?: string | null;
  secondaryColor?: string | null;
  accentColor?: string | null;
}

/**
 * The shop's colour custom properties for a store (defaults of spec 001 §3), made readable: set on
 * the shop's root by the app (lib/theme.ts) and by the gateway's first screen, so both look the same.
 */
export function storeThemeVars(store: StoreColors): { '--shop-primary': string; '--shop-secondary': string; '--shop-accent': string } {
  return {
    '--shop-primary': readableColor(color(store.primaryColor, STORE_DEFAULTS.primaryColor)),
    '--shop-secondary': readableColor(color(store.secondaryColor, STORE_DEFAULTS.secondaryColor)),
    '--shop-accent': readableColor(color(store.accentColor, STORE_DEFAULTS.accentColor)),
  };
}
