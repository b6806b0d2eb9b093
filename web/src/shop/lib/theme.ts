import type { CSSProperties } from 'react';
import { readableColor, storeThemeVars } from '@tiendita/contracts/constants';
import type { PublicStoreView } from './contracts';

/**
 * The store's colour, darkened just enough for white text on it and for it as text on the shop's
 * light background to reach 4.5:1 (one rule for the app and the gateway's first screen: contracts).
 */
export const readable = readableColor;

/** The store's colours as CSS custom properties on the shop's root (defaults of spec 001 §3), made readable. */
export function storeTheme(store: Pick<PublicStoreView, 'primaryColor' | 'secondaryColor' | 'accentColor'>): CSSProperties {
  return storeThemeVars(store) as CSSProperties;
}
