/**
 * Search without accents or case: 'cafe' finds 'Café', 'PINA' finds 'piña'. The same folding on both
 * sides: `foldSearchText` for what the user typed, `foldSearchSql` for a column (lower(), then each
 * accented letter to its plain one; upper-case ones too, for a database whose locale lower() leaves
 * them alone). Guatemalan Spanish letters and the other common Latin accents.
 */
export const SEARCH_FOLD_FROM = 'áàâäãåéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ';
export const SEARCH_FOLD_TO = 'aaaaaaeeeeiiiiooooouuuuncaaaaaaeeeeiiiiooooouuuunc';

const FOLD = new Map([...SEARCH_FOLD_FROM].map((c, i) => [c, SEARCH_FOLD_TO[i]]));

/** The user's text folded as `foldSearchSql` folds a column. */
export function foldSearchText(text: string): string {
  let out = '';
  for (const c of text.toLowerCase()) out += FOLD.get(c) ?? c;
  return out;
}

/** SQL of `expr` folded (immutable: usable in a generated column or an index). */
export function foldSearchSql(expr: string): string {
  return `translate(lower(${expr}), '${SEARCH_FOLD_FROM}', '${SEARCH_FOLD_TO}')`;
}
