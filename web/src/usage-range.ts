// The Usage page's ranges: whole UTC days (the server groups by UTC day), both ends included on
// the page, sent as `from` (inclusive) and `to` (exclusive, the day after the last) to the API.

export interface DayRange {
  /** YYYY-MM-DD, the first day included. */
  readonly from: string;
  /** YYYY-MM-DD, the last day included. */
  readonly to: string;
}

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The calendar month (UTC) `offset` months from the one holding `now`. */
export function monthRange(now: number, offset = 0): DayRange {
  const date = new Date(now);
  const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
  const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset + 1, 1);
  return { from: dayOf(first), to: dayOf(next - DAY_MS) };
}

/** The `count` days up to and including today (UTC). */
export function lastDays(now: number, count: number): DayRange {
  const today = startOf(dayOf(now));
  return { from: dayOf(today - (count - 1) * DAY_MS), to: dayOf(today) };
}

/** The most days the `usage` query reads at once. */
export const MAX_DAYS = 366;

/** What is wrong with a range the reader picked, if anything: a day missing, the wrong order, too many days. */
export function rangeProblem(range: DayRange): 'missing' | 'order' | 'length' | null {
  if (!DAY.test(range.from) || !DAY.test(range.to) || Number.isNaN(startOf(range.from)) || Number.isNaN(startOf(range.to))) return 'missing';
  if (startOf(range.from) > startOf(range.to)) return 'order';
  return (startOf(range.to) - startOf(range.from)) / DAY_MS + 1 > MAX_DAYS ? 'length' : null;
}

/** The range as the `usage` query takes it. */
export function apiRange(range: DayRange): { from: string; to: string } {
  return { from: new Date(startOf(range.from)).toISOString(), to: new Date(startOf(range.to) + DAY_MS).toISOString() };
}

/** Every day of the range, in order. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let at = startOf(range.from); at <= startOf(range.to); at += DAY_MS) days.push(dayOf(at));
  return days;
}
