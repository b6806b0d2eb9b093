import fc from 'fast-check';
import { addDays, addMonths, dayCount, daysBetween, gtDayHour, periodCover, periodRange } from './time';

describe('Guatemalan days', () => {
  it('an instant at 23:59 in Guatemala is that day, at 00:01 the next (UTC−6, no daylight saving)', () => {
    expect(gtDayHour('2026-03-15T05:59:00Z')).toEqual({ day: '2026-03-14', hour: 23 });
    expect(gtDayHour('2026-03-15T06:01:00Z')).toEqual({ day: '2026-03-15', hour: 0 });
    expect(gtDayHour(new Date('2026-07-01T17:30:00Z'))).toEqual({ day: '2026-07-01', hour: 11 });
  });

  it('periods end today and count whole Guatemalan days', () => {
    const now = new Date('2026-03-15T18:00:00Z');
    expect(periodRange('today', now)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(periodRange('week', now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(periodRange('month', now)).toEqual({ from: '2026-02-16', to: '2026-03-15' });
    expect(periodRange('year', now)).toEqual({ from: '2025-03-16', to: '2026-03-15' });
  });
});

describe('periodCover', () => {
  const count = (days: string[], into: Map<string, number>, sign: number) => days.forEach((d) => into.set(d, (into.get(d) ?? 0) + sign));
  const monthDays = (from: string, to: string) => {
    const out: string[] = [];
    for (let m = from; m < to; m = addMonths(m, 1)) out.push(...daysBetween(m, addDays(addMonths(m, 1), -1)));
    return out;
  };

  it('covers exactly the days of the period: whole months, plus the days added, minus the days taken away', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 400 }), (start, length) => {
        const from = addDays('2025-01-01', start);
        const to = addDays(from, length);
        const c = periodCover(from, to);
        const covered = new Map<string, number>();
        count(monthDays(c.months.from, c.months.to), covered, 1);
        for (const r of c.add) count(daysBetween(r.from, r.to), covered, 1);
        for (const r of c.sub) count(daysBetween(r.from, r.to), covered, -1);
        const expected = new Map(daysBetween(from, to).map((d) => [d, 1]));
        expect(new Map([...covered].filter(([, n]) => n !== 0))).toEqual(expected);
        // Nothing is counted twice, and nothing is taken away that was not in a whole month.
        expect([...covered.values()].every((n) => n === 0 || n === 1)).toBe(true);
      }),
    );
  });

  it('reads the fewest daily rows at each edge: a year ending today is 12 months, the first month’s days, and the empty rest of this month', () => {
    expect(periodCover('2025-11-24', '2026-11-23')).toEqual({
      months: { from: '2025-12-01', to: '2026-12-01' },
      add: [{ from: '2025-11-24', to: '2025-11-30' }, { from: '2026-11-24', to: '2026-11-23' }],
      sub: [{ from: '2026-11-24', to: '2026-11-23' }, { from: '2026-11-24', to: '2026-11-30' }],
    });
    const today = periodCover('2026-11-23', '2026-11-23');
    expect(today.months.from).toBe(today.months.to);
    expect(dayCount(today.add[0])).toBe(1);
  });
});
