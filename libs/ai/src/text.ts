/** Text helpers shared by the fallbacks and the search: accents, words, money in quetzales. */

/** Lowercase, without accents or marks, except that ñ stays ñ ('uña' is not 'una'). */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/n\u0303/g, 'ñ')
    .replace(/[\u0300-\u036f]/g, '');
}

/** The words of a text, folded: letters and digits only. */
export function foldedWords(text: string): string[] {
  return fold(text).split(/[^a-z0-9ñ]+/).filter(Boolean);
}

/** Words as a reader counts them (split on whitespace). */
export function countWords(text: string): number {
  const t = text.trim();
  return t ? t.split(/\s+/).length : 0;
}

/**
 * Cuts a text to at most `max` words, at the last sentence end that fits when there is one,
 * else at a word, with a closing period.
 */
export function limitWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= max) return words.join(' ');
  const cut = words.slice(0, max);
  for (let i = cut.length - 1; i >= Math.floor(max / 3); i--) {
    if (/[.!?]$/.test(cut[i])) return cut.slice(0, i + 1).join(' ');
  }
  return cut.join(' ').replace(/[,;:]$/, '') + '.';
}

/** Q1,234.50 (es-GT). */
export function quetzales(amount: number): string {
  return new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' }).format(amount);
}

/** Quetzales from centavos, formatted. */
export function quetzalesFromCentavos(centavos: number): string {
  return quetzales(Math.round(centavos) / 100);
}

/** A stable pick among variants, so the same input gives the same text (deterministic fallbacks). */
export function pick<T>(options: readonly T[], seed: string): T {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return options[(h >>> 0) % options.length];
}

/** First letter upper-case. */
export function capitalize(text: string): string {
  return text ? text.charAt(0).toLocaleUpperCase('es') + text.slice(1) : text;
}

/** A #Hashtag from words (accents removed, each word capitalised). */
export function hashtag(text: string): string {
  const tag = fold(text)
    .split(/[^a-z0-9ñ]+/)
    .filter(Boolean)
    .map(capitalize)
    .join('');
  return tag ? `#${tag}` : '';
}
