import { z } from 'zod';
import { isFields, type ToolContext, textOf, type ToolOutput, objectOf } from '../../src/mcp/tool-kit.js';
import { wallClock, zoneOffset } from '../../src/api/zone.js';
import { offsetLabel, slotDaySchema, slotRanges } from './slot-ranges.js';

/** An instant as local date-time with its offset in an IANA zone, e.g. 2026-11-23T10:00:00+01:00 (the same instant, readable). */
export function inZone(instant: string, zone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  return `${wallClock(at.getTime(), zone)}${offsetLabel(zoneOffset(at.getTime(), zone))}`;
}

/** get_slots' answer: the API's availability with its slots grouped by day (or, when they do not group, listed). */
export const slotsOutput = () =>
  objectOf('availability')
    .partial({ slots: true })
    .extend({
      timezone_source: z.enum(['asked', 'event_type']).optional().describe("Whose timezone the times are in: the one asked for, or the event type's own."),
      slot_count: z.number().int().optional(),
      step_minutes: z.number().int().optional().describe('Minutes from one start to the next within a range.'),
      days: z.array(slotDaySchema).optional().describe('Free time by local day; the slots field is left out when these are given.'),
    });

const dayLine = (d: { date: string; weekday: string; utc_offset: string; ranges: string[]; slot_count: number }) =>
  `${d.weekday} ${d.date} (UTC${d.utc_offset}): ${d.ranges.join(', ')} (${d.slot_count})`;

/**
 * get_slots: the service answers UTC instants, one object per slot. The answer groups them by
 * local day in the zone it names (the one asked for, else the event type's own), as ranges with
 * the slot length and step, so every start can be read back, in the text and structuredContent alike.
 */
export async function runSlots(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const { workspace: _, event_type_id, ...query } = args;
  const r = await ctx.api.call('get_slots', { path: { workspace: ctx.workspace(args), event_type_id: String(event_type_id) }, query, signal: ctx.signal });
  const { slots = [], reason, ...a } = r.data;
  const zone = a.timezone;
  if (!zone) return { structured: { ...a, slots, ...(reason ? { reason } : {}) }, render: (s, fence) => `Times are UTC.\n${textOf(s, fence)}` };
  const local = (t: string | null) => (t ? inZone(t, zone) : t);
  const source = query.timezone === undefined ? ('event_type' as const) : ('asked' as const);
  const whose = source === 'asked' ? 'the timezone asked for' : "the event type's own timezone (pass timezone for another)";
  const duration = a.duration_minutes ?? 0;
  const grouped = duration > 0 ? slotRanges(slots, zone, duration) : null;
  const base = {
    ...a,
    ...(a.window ? { window: { from: local(a.window.from), to: local(a.window.to) } } : {}),
    timezone_source: source,
    slot_count: slots.length,
    ...(reason ? { reason } : {}),
  };
  const head = (s: Record<string, unknown>) => {
    const w = isFields(s.window) ? s.window : undefined;
    const span = w?.from ? ` between ${w.from} and ${w.to}` : '';
    const why = s.reason ? `: ${String(s.reason)}` : '';
    return `${String(s.slot_count)} free slots of ${duration} min for ${String(s.event_type_id)}${span}${why}. Times in ${zone} (timezone_source: ${source}, ${whose}).`;
  };
  if (!grouped) {
    const structured = { ...base, slots: slots.map((s) => ({ ...s, start: local(s.start), end: local(s.end) })) };
    return { structured, render: (s, fence) => `${head(s)}\n${textOf(s, fence)}` };
  }
  const structured = { ...base, step_minutes: grouped.step_minutes, days: grouped.days };
  const text = [
    head(structured),
    ...(grouped.days.length
      ? [
          `A range HH:MM-HH:MM holds a slot starting at its first time and every ${grouped.step_minutes} min after, the last ending at its second time; (n) is the day's slot count.`,
          ...grouped.days.map(dayLine),
        ]
      : []),
  ].join('\n');
  return { structured, text };
}
