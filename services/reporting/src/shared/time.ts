/**
 * Days and hours of America/Guatemala (UTC−6 all year: Guatemala has no daylight saving time).
 * An order at 23:30 Guatemalan time belongs to that day, not to the next UTC day.
 */
export const GT_OFFSET_MS = 6 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const dayNames = new Map<number, string>();

/** 'YYYY-MM-DD' and the hour (0–23) of an instant in Guatemala. */
export function gtDayHour(at: Date | string): { day: string; hour: number } {
  const ms = (typeof at === 'string' ? Date.parse(at) : at.getTime()) - GT_OFFSET_MS;
  const n = Math.floor(ms / DAY_MS);
  // A rebuild asks for the same few days over and over: name each one once.
  let day = dayNames.get(n);
  if (day === undefined) {
    day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    if (dayNames.size >= 4096) dayNames.clear();
    dayNames.set(n, day);
  }
  return { day, hour: Math.floor((ms - n * DAY_MS) / 3_600_000) };
}

/** The first day of a 'YYYY-MM-DD''s month. */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The instant (UTC) when a Guatemalan day starts. */
export function gtDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) + GT_OFFSET_MS);
}

/** Adds whole days to a 'YYYY-MM-DD'. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Adds calendar months (clamped to the month's last day) to a 'YYYY-MM-DD'. */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

export type Period = 'today' | 'week' | 'month' | 'year';
export const PERIODS: readonly Period[] = ['today', 'week', 'month', 'year'];

/**
 * The Guatemalan days a period covers, both ends included: today (from midnight), the last 7 days,
 * the last month and the last year, each ending today.
 */
export function periodRange(period: Period, now: Date): { from: string; to: string } {
  const today = gtDayHour(now).day;
  if (period === 'today') return { from: today, to: today };
  if (period === 'week') return { from: addDays(today, -6), to: today };
  if (period === 'month') return { from: addDays(addMonths(today, -1), 1), to: today };
  return { from: addDays(addMonths(today, -12), 1), to: today };
}

export interface DayRange {
  from: string;
  /** Included; a range with to < from is empty. */
  to: string;
}

/** How many days a range holds. */
export function dayCount(r: DayRange): number {
  return r.from > r.to ? 0 : Math.round((Date.parse(`${r.to}T00:00:00Z`) - Date.parse(`${r.from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * The days [from, to] as whole calendar months [months.from, months.to) plus the days to add and
 * minus the days to take away, whichever reads fewer daily rows at each edge: a year ending today
 * is the 12 months up to this one, plus the days of the first month, minus the days of this month
 * still to come (which hold nothing).
 */
export function periodCover(from: string, to: string): { months: DayRange; add: [DayRange, DayRange]; sub: [DayRange, DayRange] } {
  const empty = (): DayRange => ({ from: addDays(to, 1), to });
  const first = monthOf(from);
  const last = monthOf(to);
  const endOf = (month: string) => addDays(addMonths(month, 1), -1);
  if (first === last) {
    const direct = { from, to };
    const before = { from: first, to: addDays(from, -1) };
    const after = { from: addDays(to, 1), to: endOf(last) };
    if (dayCount(direct) <= dayCount(before) + dayCount(after)) return { months: { from: first, to: first }, add: [direct, empty()], sub: [empty(), empty()] };
    return { months: { from: first, to: addMonths(first, 1) }, add: [empty(), empty()], sub: [before, after] };
  }
  const headPart = { from, to: endOf(first) };
  const headRest = { from: first, to: addDays(from, -1) };
  const tailPart = { from: last, to };
  const tailRest = { from: addDays(to, 1), to: endOf(last) };
  const wholeHead = dayCount(headRest) < dayCount(headPart);
  const wholeTail = dayCount(tailRest) < dayCount(tailPart);
  return {
    months: { from: wholeHead ? first : addMonths(first, 1), to: wholeTail ? addMonths(last, 1) : last },
    add: [wholeHead ? empty() : headPart, wholeTail ? empty() : tailPart],
    sub: [wholeHead ? headRest : empty(), wholeTail ? tailRest : empty()],
  };
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Centavos → quetzales with 2 decimals, as a number. */
export const q = (centavos: number): number => Math.round(Number(centavos)) / 100;

/** A percentage with one decimal (0 when the whole is 0). */
export const pct = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
