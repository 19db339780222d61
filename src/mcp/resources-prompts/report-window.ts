/** The insights summary accepts a window of at most 366 days (Limits). */
export const MAX_WINDOW_DAYS = 366;
/** What a report window completes to. */
export const WINDOW_CHOICES = ['7d', '14d', '30d', '90d', '180d', '366d'] as const;

const DAY_MS = 86_400_000;
const LAST_N = /^(\d{1,3})d$/;
const RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

export interface ReportWindow {
  from: string;
  to: string;
  label: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A real calendar day: Date.parse would roll 2026-02-30 over into March. */
const realDay = (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && dayOf(Date.parse(`${s}T00:00:00Z`)) === s;

/**
 * A report window from "30d" (the N days up to today, UTC) or "YYYY-MM-DD..YYYY-MM-DD",
 * as the from/to days get_insights_summary takes. Days are computed here, not left to the
 * model: date arithmetic is where models slip.
 */
export function reportWindow(spec: string, now: Date): ReportWindow {
  const last = LAST_N.exec(spec);
  if (last) {
    const n = Number(last[1]);
    if (n < 1 || n > MAX_WINDOW_DAYS) throw new RangeError(`a window of ${n} days is outside 1-${MAX_WINDOW_DAYS}`);
    const to = dayOf(now.getTime());
    return { from: dayOf(now.getTime() - n * DAY_MS), to, label: `the last ${n} day${n === 1 ? '' : 's'}` };
  }
  const range = RANGE.exec(spec);
  if (!range) throw new RangeError(`'${spec}' is neither "Nd" nor "YYYY-MM-DD..YYYY-MM-DD"`);
  const [, from, to] = range as unknown as [string, string, string];
  if (!realDay(from) || !realDay(to)) throw new RangeError(`'${spec}' names a day that does not exist`);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (span < 0) throw new RangeError(`'${spec}' ends before it starts`);
  if (span > MAX_WINDOW_DAYS) throw new RangeError(`'${spec}' spans more than ${MAX_WINDOW_DAYS} days`);
  return { from, to, label: `${from} to ${to}` };
}

export function isWindow(spec: string): boolean {
  try {
    reportWindow(spec, new Date());
    return true;
  } catch {
    return false;
  }
}
