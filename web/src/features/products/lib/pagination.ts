/** At most this many page buttons (spec 001 §9). */
export const MAX_PAGE_BUTTONS = 5;

/** The page numbers to show: a window of up to 5 around the current page, kept inside 1..totalPages. */
export function pageWindow(current: number, totalPages: number, size = MAX_PAGE_BUTTONS): number[] {
  if (totalPages <= 0) return [];
  const count = Math.min(size, totalPages);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}
