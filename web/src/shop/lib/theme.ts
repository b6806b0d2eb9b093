import type { CSSProperties } from 'react';
import { STORE_DEFAULTS, type PublicStoreView } from './contracts';

const HEX = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

function color(value: string | null | undefined, fallback: string): string {
  return value && HEX.test(value) ? value : fallback;
}

/** The store's colours as CSS custom properties on the shop's root (defaults of spec 001 §3). */
export function storeTheme(store: Pick<PublicStoreView, 'primaryColor' | 'secondaryColor' | 'accentColor'>): CSSProperties {
  return {
    '--shop-primary': color(store.primaryColor, STORE_DEFAULTS.primaryColor),
    '--shop-secondary': color(store.secondaryColor, STORE_DEFAULTS.secondaryColor),
    '--shop-accent': color(store.accentColor, STORE_DEFAULTS.accentColor),
  } as CSSProperties;
}
