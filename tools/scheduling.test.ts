import { beforeAll, describe, expect, it } from 'vitest';
import { everyToolCovered, firstId, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The scheduling tools (tools/scheduling.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('scheduling');
const ids = { eventType: '' };
beforeAll(async () => {
  ids.eventType = await firstId(area, 'list_event_types', { active: true, public: true });
});

describe('Scheduling: event types and free slots', () => {
  it('list_event_types and get_event_type with hosts and form fields', async () => {
    const list = await area.ok('list_event_types', {});
    expect(list.structured.data.map((e: any) => e.id)).toContain(ids.eventType);
    const { structured } = await area.ok('get_event_type', { event_type_id: ids.eventType });
    expect(structured.id).toBe(ids.eventType);
    expect(Array.isArray(structured.hosts)).toBe(true);
    expect(Array.isArray(structured.form_fields)).toBe(true);
  });
  it('get_slots: availability inside the window asked for', async () => {
    // A day after the sandbox's own time, the time it judges a window by.
    const from = new Date(area.sandbox.clock.now() + 86_400_000);
    const to = new Date(from.getTime() + 14 * 86_400_000);
    const { structured } = await area.ok('get_slots', {
      event_type_id: ids.eventType,
      from: from.toISOString(),
      to: to.toISOString(),
      timezone: 'Europe/Berlin',
    });
    expect(structured).toMatchObject({ object: 'availability', event_type_id: ids.eventType, timezone: 'Europe/Berlin' });
    // No slots means the reason says why; the days' counts add up to the slot count.
    expect(structured.slot_count > 0 || typeof structured.reason === 'string').toBe(true);
    const days = structured.days ?? [];
    expect(days.reduce((n: number, d: any) => n + d.slot_count, 0)).toBe(structured.slot_count);
    for (const d of days) {
      expect(Date.parse(`${d.date}T23:59:59${d.utc_offset}`)).toBeGreaterThanOrEqual(from.getTime());
      expect(Date.parse(`${d.date}T00:00:00${d.utc_offset}`)).toBeLessThanOrEqual(to.getTime());
    }
  });
});

const INVALID: InvalidCall[] = [
  ['list_event_types', { active: 'yes' }, 'invalid_request', 'active'],
  ['get_event_type', { event_type_id: 'evt_a/../b' }, 'invalid_id', 'event_type_id'],
  ['get_slots', { event_type_id: 'evt_abc123', timezone: 'Mars/Olympus_Mons' }, 'invalid_request', 'timezone'],
];

everyToolCovered(area, INVALID);
