import type { ThemeConfig } from 'antd';

/**
 * The owner app's antd theme, in one place: the app's ConfigProvider uses it, and the build
 * (web/build/antd-static-styles.ts) writes antd's CSS from it, so the phone never builds antd's
 * styles at run time (zeroRuntime; decision 0019).
 */
export const OWNER_THEME = {
  // No hash in class names and a fixed CSS-variable class: the build's CSS and the running app meet
  // on the same selectors (.ant-btn, .tiendita).
  hashed: false,
  cssVar: { key: 'tiendita' },
  zeroRuntime: true,
  token: {
    // Dark enough for white text on buttons and for links and secondary text on white (WCAG AA 4.5:1).
    colorPrimary: '#0369a1',
    colorLink: '#0369a1',
    colorTextSecondary: 'rgba(0, 0, 0, 0.66)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorError: '#dc2626',
    borderRadius: 8,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
} satisfies ThemeConfig;
