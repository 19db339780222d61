/** Helpers for placing seeded data around the anchor (--now). All ISO 8601 UTC with Z, whole seconds. */

const dayPrefixes = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * ISO 8601 UTC, whole seconds, trailing Z. Formats without a Date per call: a 100,000-lead
 * seed makes about a million stamps, and toISOString dominated it.
 */
export function iso(d: Date | number): string {
  const ms = typeof d === 'number' ? d : d.getTime();
  const s = Math.floor(ms / 1000);
  const dayIndex = Math.floor(s / 86_400);
  const r = s - dayIndex * 86_400;
  let prefix = dayPrefixes.get(dayIndex);
  if (prefix === undefined) dayPrefixes.set(dayIndex, (prefix = new Date(dayIndex * 86_400_000).toISOString().slice(0, 11)));
  return `${prefix}${two(Math.floor(r / 3600))}:${two(Math.floor(r / 60) % 60)}:${two(r % 60)}Z`;
}
export function daysBefore(anchor: Date, days: number): string {
  return iso(anchor.getTime() - days * 86_400_000);
}
export function day(d: Date | number): string {
  return iso(d).slice(0, 10);
}
export function addDays(dayStr: string, n: number): string {
  return day(Date.parse(`${dayStr}T00:00:00Z`) + n * 86_400_000);
}
