import type { ToolContext } from '../../src/mcp/tool/context.js';
import { textOf } from '../../src/mcp/view/shape.js';
import { wallClock, zoneOffset } from '../../src/api/zone.js';
import type { ToolOutput } from '../../src/mcp/view/output.js';

/** An instant as local date-time with its offset in an IANA zone, e.g. 2026-11-23T10:00:00+01:00 (the same instant, readable). */
export function inZone(instant: string, zone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  const local = wallClock(at.getTime(), zone);
  const minutes = Math.round(zoneOffset(at.getTime(), zone) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

interface Availability {
  timezone?: string;
  window?: { from: string | null; to: string | null };
  slots?: { start: string | null; end: string | null }[];
}

/**
 * get_slots: the service answers UTC instants; the times are shown in the zone the answer
 * names (the one asked for, else the event type's), with the offset, in the text and in
 * structuredContent alike, so nobody offers a lead a time an hour off.
 */
export async function runSlots(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const { workspace: _, event_type_id, ...query } = args;
  const r = await ctx.api.call('get_slots', { path: { workspace: ctx.workspace(args), event_type_id: String(event_type_id) }, query, signal: ctx.signal });
  const a = r.data as Availability & Record<string, unknown>;
  const zone = a.timezone;
  if (!zone) return { structured: a, render: (s, fence) => `Times are UTC.\n${textOf(s, fence)}` };
  const local = (t: string | null) => (t ? inZone(t, zone) : t);
  const structured = {
    ...a,
    ...(a.window ? { window: { from: local(a.window.from), to: local(a.window.to) } } : {}),
    slots: (a.slots ?? []).map((s) => ({ ...s, start: local(s.start), end: local(s.end) })),
  };
  return { structured, render: (s, fence) => `Times are in ${zone}, with their UTC offset.\n${textOf(s, fence)}` };
}
