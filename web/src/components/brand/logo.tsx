interface LogoProps {
  /** Icon size in px; the wordmark scales with it. */
  size?: number;
  /** Dark text for light backgrounds, white text for coloured ones. */
  tone?: 'dark' | 'light';
  showWordmark?: boolean;
}

/** The Tiendita mark: a shopping bag with the brand's sky blue, plus the wordmark. */
export function Logo({ size = 32, tone = 'dark', showWordmark = true }: LogoProps) {
  return (
    <span className="logo" style={{ display: 'inline-flex', alignItems: 'center', gap: size * 0.3 }}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill={tone === 'light' ? '#ffffff' : '#0ea5e9'} />
        <path d="M8 12h16l-1.5 12a2 2 0 0 1-2 1.8h-9a2 2 0 0 1-2-1.8z" fill={tone === 'light' ? '#0ea5e9' : '#ffffff'} />
        <path d="M12 12V10a4 4 0 0 1 8 0v2" fill="none" stroke={tone === 'light' ? '#0ea5e9' : '#ffffff'} strokeWidth="2" />
      </svg>
      {showWordmark ? (
        <span style={{ fontWeight: 800, fontSize: size * 0.66, letterSpacing: '-0.02em', color: tone === 'light' ? '#ffffff' : '#0f172a' }}>
          Tiendita
        </span>
      ) : (
        <span className="visually-hidden">Tiendita</span>
      )}
    </span>
  );
}
