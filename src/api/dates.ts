import { z } from 'zod';

/**
 * Calendar days (YYYY-MM-DD) and date-times (ISO 8601 with a zone), and, for a value that is
 * neither, what is wrong with it in words: "November 2026 has 30 days" costs a model one
 * retry, "must be YYYY-MM-DD" can cost several.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** What is wrong with the numbers of a YYYY-MM-DD day, or null when it exists. */
function calendarProblem(s: string): string | null {
  const [year, month, day] = s.split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12) return `${s} has no month ${String(month).padStart(2, '0')}: months run 01 to 12`;
  const last = daysIn(year, month);
  if (day < 1 || day > last) return `${s} is not a day: ${MONTHS[month - 1]} ${year} has ${last} days`;
  return null;
}

export function isDay(s: string): boolean {
  return DAY.test(s) && calendarProblem(s) === null;
}

/** A date-time whose date exists: Date.parse alone rolls 2026-02-30 over into March. */
export function isDateTime(s: string): boolean {
  return DATE_TIME.test(s) && isDay(s.slice(0, 10)) && timeProblem(s) === null && !Number.isNaN(Date.parse(s));
}

/** What is wrong with a value given for a day, or null when it is one. */
export function dayProblem(s: string): string | null {
  if (DAY.test(s)) return calendarProblem(s);
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(s)) return `${s} is a date-time; give the day alone, YYYY-MM-DD (${s.slice(0, 10)})`;
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{4}$/.test(s)) return `${s} is not in the form YYYY-MM-DD (the year first, e.g. 2026-01-31)`;
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(s)) return `${s} needs two digits for the month and the day (YYYY-MM-DD, e.g. 2026-01-05)`;
  return `${JSON.stringify(s.slice(0, 40))} is not a calendar day YYYY-MM-DD`;
}

/** An hour or minute out of range in the time part, or null. */
function timeProblem(s: string): string | null {
  const m = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(s);
  if (!m) return null;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hour > 23) return `${s} has no hour ${m[1]}: hours run 00 to 23`;
  if (minute > 59 || second > 59) return `${s} has a minute or second over 59`;
  return null;
}

/** What is wrong with a value given for a date-time, or null when it is one. */
export function dateTimeProblem(s: string): string | null {
  const example = 'e.g. 2026-01-31T09:00:00Z';
  if (DAY.test(s)) return calendarProblem(s) ?? `${s} is a day; a date-time is needed, ${example}`;
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(s)) {
    const day = calendarProblem(s.slice(0, 10));
    if (day) return day;
    if (s[10] === ' ') return `${s} needs a T between the day and the time (${s.slice(0, 10)}T${s.slice(11)})`;
    const time = timeProblem(s);
    if (time) return time;
    if (/^[^Z+]*T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(s)) return `${s} has no time zone: end it with Z (UTC) or an offset such as +01:00`;
  }
  if (DATE_TIME.test(s) && !Number.isNaN(Date.parse(s))) return null;
  return `${JSON.stringify(s.slice(0, 40))} is not an ISO 8601 date-time, ${example}`;
}

/** A string schema whose refusal says what is wrong with the value (the problem function's sentence). */
export function explainedString(problem: (s: string) => string | null) {
  return z.string().superRefine((v, ctx) => {
    const why = problem(v);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  });
}
