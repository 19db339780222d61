import { wallClock } from '../../api/zone.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Today, as get_me states it: the date and weekday in UTC, and in the key owner's timezone when the API names one. */
export interface Today {
  /** This instant, ISO 8601 UTC. */
  now: string;
  date_utc: string;
  weekday_utc: string;
  /** The key owner's IANA timezone (GET /v1/me owner.timezone); absent with the three after it when the API names none. */
  timezone?: string;
  date?: string;
  weekday?: string;
  /** The owner's wall clock, HH:MM. */
  time?: string;
}

/** The weekday of a YYYY-MM-DD day. */
const weekdayOf = (day: string) => WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!;

/** A zone this runtime can read, or null (an unknown name is said as UTC only, never thrown). */
function readable(zone: unknown): string | null {
  if (typeof zone !== 'string' || zone === '') return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

/** Today at `nowMs`, in UTC and in `zone` (the key owner's timezone) when it is one. */
export function today(nowMs: number, zone?: unknown): Today {
  const utc = new Date(nowMs).toISOString();
  const date_utc = utc.slice(0, 10);
  const out: Today = { now: `${utc.slice(0, 19)}Z`, date_utc, weekday_utc: weekdayOf(date_utc) };
  const tz = readable(zone);
  if (!tz) return out;
  const local = wallClock(nowMs, tz);
  return { ...out, timezone: tz, date: local.slice(0, 10), weekday: weekdayOf(local.slice(0, 10)), time: local.slice(11, 16) };
}

/** Today in one sentence, for a refusal of a day or time: what an agent needs to compute "next monday" itself. */
export function todayLine(t: Today): string {
  const utc = `Today is ${t.weekday_utc} ${t.date_utc} in UTC`;
  if (!t.timezone) return `${utc} (${t.now}).`;
  return `${utc}; in ${t.timezone}, the key owner's timezone, it is ${t.weekday} ${t.date}, ${t.time}.`;
}
