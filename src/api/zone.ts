/**
 * Time zones, shared by the sandbox (slots on a zone's wall clock) and the tools (slot times
 * shown in the zone the caller named): one reading of Intl, written once.
 */

/** The wall clock of an IANA zone at an instant, to the second: "2026-11-23T10:00:00". */
export function wallClock(at: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Offset of a zone from UTC at an instant, in milliseconds (whole seconds of the instant). */
export function zoneOffset(at: number, timeZone: string): number {
  return Date.parse(`${wallClock(at, timeZone)}Z`) - (at - (at % 1000));
}
