import { z } from 'zod';
import { wallClock, zoneOffset } from '../../src/api/zone.js';

const MINUTE = 60_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** One local day of free time: its slots as ranges of the day's wall clock, in its UTC offset. */
export interface SlotDay {
  date: string;
  weekday: string;
  utc_offset: string;
  ranges: string[];
  slot_count: number;
}

export const slotDaySchema = z.looseObject({
  date: z.string().describe('Local calendar day, YYYY-MM-DD.'),
  weekday: z.string(),
  utc_offset: z.string().describe("The day's UTC offset in the timezone, e.g. -05:00: a range's times are wall-clock times at it."),
  ranges: z
    .array(z.string())
    .describe('"HH:MM-HH:MM": a slot starts at the first time and every step_minutes after, each duration_minutes long; the last ends at the second time.'),
  slot_count: z.number().int(),
});

/** `-05:00` for an offset in ms. */
export function offsetLabel(offsetMs: number): string {
  const minutes = Math.round(offsetMs / MINUTE);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Minutes since the local midnight as HH:MM; past midnight (a range's end) it reads 24:00 and on. */
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

interface Local {
  at: number;
  date: string;
  offset: number;
  /** Minutes since the local midnight. */
  minutes: number;
}

function local(at: number, zone: string): Local {
  const wall = wallClock(at, zone);
  return { at, date: wall.slice(0, 10), offset: zoneOffset(at, zone), minutes: Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16)) };
}

/** The gap that most often separates one start from the next on the same day; the slot length when no day has two. */
function commonStep(days: Local[][], lengthMs: number): number {
  const seen = new Map<number, number>();
  for (const day of days) for (let i = 1; i < day.length; i++) seen.set(day[i]!.at - day[i - 1]!.at, (seen.get(day[i]!.at - day[i - 1]!.at) ?? 0) + 1);
  let best = lengthMs;
  let most = 0;
  for (const [gap, n] of seen) if (n > most || (n === most && gap < best)) [best, most] = [gap, n];
  return best;
}

/**
 * Slots grouped by local day into runs a start every `step` apart, each run written from its
 * first start to the end of its last slot. Null when the slots do not fit that form exactly (a
 * slot of another length, a start off the minute, a repeated start): the caller then lists them.
 */
export function slotRanges(
  slots: readonly { start: string | null; end: string | null }[],
  zone: string,
  durationMinutes: number,
): { step_minutes: number; days: SlotDay[] } | null {
  const lengthMs = durationMinutes * MINUTE;
  const starts: number[] = [];
  for (const s of slots) {
    const start = Date.parse(s.start ?? '');
    if (Number.isNaN(start) || start % MINUTE !== 0 || Date.parse(s.end ?? '') - start !== lengthMs) return null;
    starts.push(start);
  }
  starts.sort((a, b) => a - b);
  if (starts.some((at, i) => i > 0 && at === starts[i - 1])) return null;
  // A day is one local date at one offset (a change of offset that day starts another).
  const days: Local[][] = [];
  for (const at of starts) {
    const l = local(at, zone);
    const day = days.at(-1);
    if (day && day[0]!.date === l.date && day[0]!.offset === l.offset) day.push(l);
    else days.push([l]);
  }
  const step = commonStep(days, lengthMs);
  if (step % MINUTE !== 0) return null;
  return {
    step_minutes: step / MINUTE,
    days: days.map((day) => {
      const ranges: string[] = [];
      let first = day[0]!;
      day.forEach((l, i) => {
        const next = day[i + 1];
        if (next && next.at - l.at === step) return;
        ranges.push(`${clock(first.minutes)}-${clock(l.minutes + durationMinutes)}`);
        if (next) first = next;
      });
      const weekday = WEEKDAYS[new Date(`${day[0]!.date}T00:00:00Z`).getUTCDay()]!;
      return { date: day[0]!.date, weekday, utc_offset: offsetLabel(day[0]!.offset), ranges, slot_count: day.length };
    }),
  };
}
