/** Helpers for placing seeded data around the anchor (--now). All ISO 8601 UTC with Z. */
export function iso(d: Date | number): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
export function daysBefore(anchor: Date, days: number): string {
  return iso(anchor.getTime() - days * 86_400_000);
}
export function minutesBefore(anchor: Date, minutes: number): string {
  return iso(anchor.getTime() - minutes * 60_000);
}
export function day(d: Date | number): string {
  return new Date(d).toISOString().slice(0, 10);
}
export function addDays(dayStr: string, n: number): string {
  return day(Date.parse(`${dayStr}T00:00:00Z`) + n * 86_400_000);
}
