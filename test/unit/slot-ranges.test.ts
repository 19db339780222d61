import type { CallToolResult } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { slotRanges } from '../../tools/support/slot-ranges.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();
/** The sandbox's now, which stands still: "today" is the seed's day, whatever the wall says. */
const NOW = Date.parse(TEST_NOW);
beforeAll(() => {
  server.sb.clock.now = () => NOW;
});
const DAY = 86_400_000;

const call = async (args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name: 'get_slots', arguments: args })) as CallToolResult;
  return { isError: r.isError === true, structured: r.structuredContent as any, text: (r.content[0] as { text: string }).text };
};

/** The slots the API itself lists for the same window, as instants (with another key: each key has its own upstream bucket). */
async function apiSlots(eventTypeId: string, query: Record<string, string>): Promise<{ start: number; end: number }[]> {
  const api = new ReplyInboxClient({ apiKey: server.sb.keys.rep, baseUrl: server.sb.baseUrl, logLevel: 'silent' });
  const r = await api.call('get_slots', { path: { workspace: 'acme', event_type_id: eventTypeId }, query });
  return (r.data as { slots: { start: string; end: string }[] }).slots.map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end) }));
}

/**
 * Every slot an answer describes, read as its words say: a day's range "HH:MM-HH:MM" (in the
 * day's UTC offset) holds a slot starting at its first time and then every step_minutes, each
 * duration_minutes long, the last one ending at the range's end.
 */
function expand(s: any): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  for (const day of s.days) {
    const midnight = Date.parse(`${day.date}T00:00:00${day.utc_offset}`);
    for (const range of day.ranges as string[]) {
      const [from, to] = range.split('-') as [string, string];
      const end = midnight + minutes(to) * 60_000;
      for (let at = midnight + minutes(from) * 60_000; at + s.duration_minutes * 60_000 <= end; at += s.step_minutes * 60_000) {
        out.push({ start: at, end: at + s.duration_minutes * 60_000 });
      }
    }
  }
  return out;
}

/** A week of the round-robin event type, from the start of tomorrow in UTC. */
function roundRobinWeek() {
  const et = server.sb.store.eventTypes.inGroup('acme').find((e) => e.scheduling_type === 'round_robin')!;
  const from = new Date(Math.floor(NOW / DAY) * DAY + DAY).toISOString();
  const to = new Date(Date.parse(from) + 7 * DAY).toISOString();
  return { et, from, to };
}

describe('get_slots groups free time by day as ranges, in one timezone, and says how many slots of what length', () => {
  it('a week of the round-robin event type: at most 4,000 bytes of text and 6,000 of structuredContent', async () => {
    const { et, from, to } = roundRobinWeek();
    const r = await call({ event_type_id: et.id, from, to, timezone: 'America/New_York' });
    expect(r.isError).toBe(false);
    const slots = await apiSlots(et.id, { from, to, timezone: 'America/New_York' });
    expect(slots.length).toBeGreaterThan(100);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(4_000);
    expect(Buffer.byteLength(JSON.stringify(r.structured))).toBeLessThanOrEqual(6_000);
  });

  it.each([
    ['America/New_York', 'round_robin'],
    ['Asia/Kolkata', 'collective'],
    [undefined, 'single'],
  ])('in %s (%s): expanding the ranges gives exactly the API’s slot list, and the counts add up', async (timezone, type) => {
    const et = server.sb.store.eventTypes.inGroup('acme').find((e) => e.scheduling_type === type && e.active && e.public)!;
    const from = new Date(Math.floor(NOW / DAY) * DAY).toISOString();
    const to = new Date(Date.parse(from) + 14 * DAY).toISOString();
    const query = { from, to, ...(timezone ? { timezone } : {}) };
    const r = await call({ event_type_id: et.id, ...query });
    expect(r.isError).toBe(false);
    const slots = await apiSlots(et.id, query);
    expect(slots.length).toBeGreaterThan(0);
    expect(expand(r.structured)).toEqual(slots);
    expect(r.structured.slot_count).toBe(slots.length);
    expect(r.structured.days.reduce((n: number, d: any) => n + d.slot_count, 0)).toBe(slots.length);
    expect(r.structured.duration_minutes).toBe(et.duration_minutes);
    expect(r.text).toContain(`${slots.length} free slots of ${et.duration_minutes} min`);
    for (const day of r.structured.days) for (const range of day.ranges) expect(r.text).toContain(range);
  });

  it('names the timezone and whose it is: the one asked for, else the event type’s own', async () => {
    const { et, from, to } = roundRobinWeek();
    const asked = await call({ event_type_id: et.id, from, to, timezone: 'America/New_York' });
    expect(asked.structured).toMatchObject({ timezone: 'America/New_York', timezone_source: 'asked' });
    expect(asked.text).toContain('Times in America/New_York (timezone_source: asked, the timezone asked for)');
    for (const day of asked.structured.days) expect(day.utc_offset).toMatch(/^-0[45]:00$/);
    const own = await call({ event_type_id: et.id, from, to });
    expect(own.structured).toMatchObject({ timezone: et.availability.timezone, timezone_source: 'event_type' });
    expect(own.text).toContain(`Times in ${et.availability.timezone} (timezone_source: event_type, the event type's own timezone`);
  });

  it('an empty answer keeps its reason and counts no slot', async () => {
    const et = server.sb.store.eventTypes.inGroup('acme').find((e) => !e.active)!;
    const r = await call({ event_type_id: et.id });
    expect(r.isError).toBe(false);
    expect(r.structured.slot_count).toBe(0);
    expect(r.structured.reason).toEqual(expect.any(String));
    expect(r.text).toContain(r.structured.reason);
  });
});

describe('slotRanges reads back exactly, or declines', () => {
  const slotsAt = (starts: string[], minutes: number) => starts.map((s) => ({ start: s, end: new Date(Date.parse(s) + minutes * 60_000).toISOString() }));
  const instants = (slots: { start: string; end: string }[]) => slots.map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end) }));

  it('overlapping starts (every 15 min, 30 min long), a gap, and a day across a change of offset', () => {
    const starts = [
      '2026-10-24T08:00:00Z',
      '2026-10-24T08:15:00Z',
      '2026-10-24T08:30:00Z',
      '2026-10-24T10:00:00Z',
      // Europe/Berlin leaves +02:00 for +01:00 at 01:00Z on 2026-10-25.
      '2026-10-24T23:30:00Z',
      '2026-10-25T00:15:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T01:15:00Z',
    ];
    const slots = slotsAt(starts, 30);
    const g = slotRanges(slots, 'Europe/Berlin', 30)!;
    expect(g.step_minutes).toBe(15);
    expect(g.days.map((d) => [d.date, d.utc_offset])).toEqual([
      ['2026-10-24', '+02:00'],
      ['2026-10-25', '+02:00'],
      ['2026-10-25', '+01:00'],
    ]);
    expect(g.days[0]!.ranges).toEqual(['10:00-11:00', '12:00-12:30']);
    expect(expand({ ...g, duration_minutes: 30 })).toEqual(instants(slots));
  });

  it('a range that ends past midnight reads as 24:00 and on', () => {
    const slots = slotsAt(['2026-11-23T23:20:00Z', '2026-11-23T23:40:00Z'], 20);
    const g = slotRanges(slots, 'UTC', 20)!;
    expect(g.days[0]!.ranges).toEqual(['23:20-24:00']);
    expect(expand({ ...g, duration_minutes: 20 })).toEqual(instants(slots));
  });

  it('declines slots of another length, a start off the minute, or a repeated start', () => {
    expect(slotRanges([...slotsAt(['2026-11-23T09:00:00Z'], 20), ...slotsAt(['2026-11-23T10:00:00Z'], 30)], 'UTC', 20)).toBeNull();
    expect(slotRanges(slotsAt(['2026-11-23T09:00:30Z'], 20), 'UTC', 20)).toBeNull();
    expect(slotRanges(slotsAt(['2026-11-23T09:00:00Z', '2026-11-23T09:00:00Z'], 20), 'UTC', 20)).toBeNull();
  });
});
