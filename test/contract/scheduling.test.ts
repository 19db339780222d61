import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isId } from '../../src/api/ids.js';
import { availabilityResource, eventTypeResource } from '../../src/api/resources.js';
import { TEST_NOW, type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
const DAY = 86_400_000;
let api: TestApi;
let types: any[];
const bySlug = (slug: string) => {
  const et = types.find((t) => t.slug === slug);
  if (!et) throw new Error(`no event type ${slug}`);
  return et;
};
const slotsOf = (slug: string, query: Record<string, string> = {}, key?: 'readonly') =>
  api.get(`${WS}/event_types/${bySlug(slug).id}/slots`, { query, ...(key ? { key } : {}) });
const at = (ms: number) => new Date(ms).toISOString();

/** The sandbox's now, which stands still: the bookable range starts from it. */
const NOW = Date.parse(TEST_NOW);
beforeAll(async () => {
  api = await startTestApi({ leads: 30, bucketLimits: { upstream: 1000 } });
  api.sandbox.clock.now = () => NOW;
  types = await readAll(api, `${WS}/event_types`);
});
afterAll(() => api.close());

describe('event_type resource: every field, default_field_config always concrete', () => {
  it('lists event types in the resource shape, each with a concrete five-key field config', () => {
    expect(types.length).toBeGreaterThanOrEqual(7);
    for (const et of types) {
      expect(eventTypeResource.safeParse(et).success).toBe(true);
      expect(et.workspace).toBe('acme');
      expect(isId('event_type', et.id)).toBe(true);
      expect(Object.keys(et.default_field_config).sort()).toEqual(['company', 'email', 'first_name', 'last_name', 'phone']);
      for (const c of Object.values<any>(et.default_field_config)) expect([typeof c.included, typeof c.required]).toEqual(['boolean', 'boolean']);
      expect(et).not.toHaveProperty('hosts');
      expect(et).not.toHaveProperty('form_fields');
      expect(et).not.toHaveProperty('availability');
      expect(et).not.toHaveProperty('busy');
    }
  });

  it('has one event type of each scheduling_type', () => {
    expect(new Set(types.map((t) => t.scheduling_type))).toEqual(new Set(['single', 'collective', 'round_robin']));
  });

  it('gives a public event type a full URL on the booking host, and a private one none', () => {
    const pub = types.filter((t) => t.public);
    expect(pub.length).toBeGreaterThan(0);
    for (const t of pub) expect(new URL(t.public_url).protocol).toBe('https:');
    expect(types.filter((t) => !t.public).every((t) => t.public_url === null)).toBe(true);
  });
});

describe('event type list: filters active and public, starting_after is an alias of cursor', () => {
  it('active=false returns only inactive event types, active=true only active ones', async () => {
    const inactive = await readAll(api, `${WS}/event_types`, { query: { active: false } });
    const active = await readAll(api, `${WS}/event_types`, { query: { active: true } });
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((t) => t.active === false)).toBe(true);
    expect(active.every((t) => t.active === true)).toBe(true);
    expect(inactive.length + active.length).toBe(types.length);
  });

  it('public=false returns only private event types', async () => {
    const priv = await readAll(api, `${WS}/event_types`, { query: { public: false } });
    expect(priv.length).toBeGreaterThan(0);
    expect(priv.every((t) => t.public === false)).toBe(true);
  });

  it('pages with starting_after exactly as with cursor', async () => {
    const first = await api.get(`${WS}/event_types`, { query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const viaCursor = await api.get(`${WS}/event_types`, { query: { limit: 2, cursor: first.body.next_cursor } });
    const viaAlias = await api.get(`${WS}/event_types`, { query: { limit: 2, starting_after: first.body.next_cursor } });
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.body.data.map((t: any) => t.id)).toEqual(viaCursor.body.data.map((t: any) => t.id));
    expect(first.body.data.map((t: any) => t.id)).not.toContain(viaAlias.body.data[0].id);
  });

  it('sorts by (order_index, id), descending by default; order=asc flips it', async () => {
    const desc = types.map((t) => t.order_index);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const asc = await readAll(api, `${WS}/event_types`, { query: { order: 'asc' } });
    expect(asc.map((t) => t.id)).toEqual([...types].reverse().map((t) => t.id));
  });

  it('refuses an unknown filter with unsupported_filter naming it, and a bad boolean with invalid_request', async () => {
    const r = await api.get(`${WS}/event_types`, { query: { host_id: 'usr_ben' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'host_id' });
    const b = await api.get(`${WS}/event_types`, { query: { active: 'yes' } });
    expect(b.status).toBe(400);
    expect(b.body.error).toMatchObject({ code: 'invalid_request', param: 'active' });
  });

  it('refuses a cursor made by another list with invalid_cursor', async () => {
    const members = await api.get(`${WS}/members`, { query: { limit: 1 } });
    expect(members.body.next_cursor).toEqual(expect.any(String));
    const r = await api.get(`${WS}/event_types`, { query: { cursor: members.body.next_cursor } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});

describe('single event type read adds hosts[] and form_fields[]', () => {
  it('returns hosts with two-part member ids and form fields of several types', async () => {
    const et = bySlug('discovery-call');
    const r = await api.get(`${WS}/event_types/${et.id}`);
    expect(r.status).toBe(200);
    expect(eventTypeResource.safeParse(r.body).success).toBe(true);
    expect(r.body.hosts.length).toBeGreaterThan(0);
    for (const h of r.body.hosts) {
      expect(Object.keys(h).sort()).toEqual(['active', 'event_type_id', 'id', 'is_host', 'member_id', 'object', 'priority', 'weight']);
      expect(h).toMatchObject({ object: 'event_type_host', event_type_id: et.id });
      expect(isId('member', h.member_id)).toBe(true);
    }
    expect(new Set(r.body.form_fields.map((f: any) => f.type))).toEqual(new Set(['select', 'textarea', 'multiselect', 'checkbox', 'text']));
    for (const f of r.body.form_fields) expect(f).toMatchObject({ object: 'event_type_form_field', event_type_id: et.id });
  });

  it('shows hosts that are inactive with active=false', async () => {
    const r = await api.get(`${WS}/event_types/${bySlug('intro').id}`);
    expect(r.body.hosts.map((h: any) => h.active)).toContain(false);
    expect(r.body.hosts.map((h: any) => h.active)).toContain(true);
  });

  it('reports an event type of another workspace as 404 not_found', async () => {
    const r = await api.get(`/v1/workspaces/globex/event_types/${bySlug('discovery-call').id}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'event_type_id' });
  });

  it('refuses an id of another kind with invalid_id', async () => {
    const r = await api.get(`${WS}/event_types/mtg_abc`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'event_type_id' });
  });
});

describe('slots: the window is clamped to public_booking_window_days and minimum_notice_minutes, whatever the caller sends', () => {
  it('moves the start to now + minimum notice and the end to now + the booking window', async () => {
    const et = bySlug('discovery-call');
    const r = await slotsOf('discovery-call', { from: at(NOW - 5 * DAY), to: at(NOW + 54 * DAY) });
    expect(r.status).toBe(200);
    expect(availabilityResource.safeParse(r.body).success).toBe(true);
    const from = Date.parse(r.body.window.from);
    const to = Date.parse(r.body.window.to);
    expect(from).toBeGreaterThanOrEqual(NOW + et.minimum_notice_minutes * 60_000 - 1000);
    expect(to).toBeLessThanOrEqual(NOW + et.public_booking_window_days * DAY);
    expect(to).toBeGreaterThan(NOW + (et.public_booking_window_days - 1) * DAY);
    expect(r.body.slots.length).toBeGreaterThan(0);
    for (const s of r.body.slots) {
      expect(Date.parse(s.start)).toBeGreaterThanOrEqual(from);
      expect(Date.parse(s.end)).toBeLessThanOrEqual(to);
      expect(Date.parse(s.end) - Date.parse(s.start)).toBe(et.duration_minutes * 60_000);
    }
    expect(r.body).toMatchObject({ object: 'availability', event_type_id: et.id, duration_minutes: et.duration_minutes, reason: null });
  });

  it('keeps a caller window that already lies inside the bookable range', async () => {
    const from = at(Math.ceil((NOW + 2 * DAY) / 60_000) * 60_000);
    const to = at(Date.parse(from) + 3 * DAY);
    const r = await slotsOf('discovery-call', { from, to });
    expect(r.body.window).toEqual({ from: from.replace('.000Z', 'Z'), to: to.replace('.000Z', 'Z') });
  });
});

describe('slots: free time only, inside working hours, with no host identity', () => {
  it('offers no slot that overlaps busy calendar time widened by the buffers', async () => {
    const et = bySlug('team-demo');
    const rec = api.sandbox.store.eventTypes.get(et.id)!;
    const r = await slotsOf('team-demo', { to: at(NOW + 20 * DAY) });
    expect(r.status).toBe(200);
    const busy = rec.busy.map((b) => [Date.parse(b.start), Date.parse(b.end)]);
    for (const s of r.body.slots) {
      const start = Date.parse(s.start) - et.buffer_before_minutes * 60_000;
      const end = Date.parse(s.end) + et.buffer_after_minutes * 60_000;
      expect(busy.some(([bs, be]) => start < be! && end > bs!)).toBe(false);
    }
  });

  it('removes a slot once busy time covers it', async () => {
    const et = bySlug('intro');
    const rec = api.sandbox.store.eventTypes.get(et.id)!;
    const first = await slotsOf('intro');
    const victim = first.body.slots[0];
    expect(victim).toBeDefined();
    rec.busy.push({ start: victim.start, end: victim.end });
    const again = await slotsOf('intro', { from: first.body.window.from, to: first.body.window.to });
    expect(again.body.slots.map((s: any) => s.start)).not.toContain(victim.start);
    rec.busy.pop();
  });

  it('places slots on weekdays between 09:00 and 17:00 in the working-hours time zone', async () => {
    const r = await slotsOf('discovery-call');
    expect(r.body.slots.length).toBeGreaterThan(0);
    const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    for (const s of r.body.slots) {
      const parts = Object.fromEntries(fmt.formatToParts(new Date(s.start)).map((p) => [p.type, p.value]));
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(parts.weekday);
      const minutes = Number(parts.hour) * 60 + Number(parts.minute);
      expect(minutes).toBeGreaterThanOrEqual(9 * 60);
      expect(minutes + 30).toBeLessThanOrEqual(17 * 60);
    }
  });

  it('returns slots with only object, start and end', async () => {
    const r = await slotsOf('intro');
    expect(r.body.slots.length).toBeGreaterThan(0);
    for (const s of r.body.slots) expect(Object.keys(s).sort()).toEqual(['end', 'object', 'start']);
  });
});

describe('slots window: 60 days maximum; also clamped to booking window and minimum notice', () => {
  it('clamps a window longer than 60 days to 60 days from its start, and window says what was searched', async () => {
    // From 50 days ago for 90 days: the 60-day cap ends it 10 days from now, inside the booking window.
    const et = bySlug('discovery-call');
    expect(et.public_booking_window_days).toBeGreaterThan(11);
    const from = Math.floor((NOW - 50 * DAY) / 60_000) * 60_000;
    const r = await slotsOf('discovery-call', { from: at(from), to: at(from + 90 * DAY) });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.window.to)).toBe(from + 60 * DAY);
    expect(Date.parse(r.body.window.from)).toBeGreaterThanOrEqual(NOW - 60_000);
    for (const s of r.body.slots) expect(Date.parse(s.end)).toBeLessThanOrEqual(from + 60 * DAY);
  });

  it('accepts exactly 60 days', async () => {
    const from = NOW + DAY;
    const r = await slotsOf('discovery-call', { from: at(from), to: at(from + 60 * DAY) });
    expect(r.status).toBe(200);
  });

  it('refuses to earlier than from with invalid_request naming to', async () => {
    const from = NOW + 3 * DAY;
    const r = await slotsOf('discovery-call', { from: at(from), to: at(from - DAY) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'to' });
  });

  it('refuses a from on a day that does not exist (2026-11-31) with invalid_request naming from', async () => {
    const r = await slotsOf('discovery-call', { from: '2026-11-31T09:00:00Z' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });

  it('refuses a from that is not a date-time with invalid_request naming from', async () => {
    const r = await slotsOf('discovery-call', { from: 'tomorrow' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
});

describe('slots: reason when the list is empty and the cause is known', () => {
  it('outside_booking_window when the whole request lies beyond the booking window', async () => {
    const from = NOW + (bySlug('discovery-call').public_booking_window_days + 5) * DAY;
    const r = await slotsOf('discovery-call', { from: at(from), to: at(from + 5 * DAY) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ slots: [], reason: 'outside_booking_window', window: { from: null, to: null } });
  });

  it('outside_booking_window when the whole request lies inside the minimum notice', async () => {
    const r = await slotsOf('team-demo', { from: at(NOW), to: at(NOW + 3_600_000) });
    expect(r.body).toMatchObject({ slots: [], reason: 'outside_booking_window' });
  });

  it('no_active_hosts when every host is inactive', async () => {
    const r = await slotsOf('office-hours');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ slots: [], reason: 'no_active_hosts' });
  });

  it('no_calendar_connected when the host has no calendar', async () => {
    const r = await slotsOf('pricing');
    expect(r.body).toMatchObject({ slots: [], reason: 'no_calendar_connected' });
  });

  it('reason is null when slots are found', async () => {
    const r = await slotsOf('intro');
    expect(r.body.slots.length).toBeGreaterThan(0);
    expect(r.body.reason).toBeNull();
  });
});

describe('slots: timezone parameter', () => {
  it('reports the asked time zone and keeps slot times as UTC instants', async () => {
    const plain = await slotsOf('intro');
    const r = await slotsOf('intro', { timezone: 'Asia/Tokyo', from: plain.body.window.from, to: plain.body.window.to });
    expect(r.body.timezone).toBe('Asia/Tokyo');
    expect(r.body.slots).toEqual(plain.body.slots);
    for (const s of r.body.slots) expect(s.start).toMatch(/Z$/);
  });

  it("defaults to the event type's working-hours time zone", async () => {
    const r = await slotsOf('discovery-call');
    expect(r.body.timezone).toBe('America/New_York');
  });

  it('refuses an unknown time zone with invalid_request naming timezone', async () => {
    const r = await slotsOf('intro', { timezone: 'Mars/Olympus' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'timezone' });
  });

  it('refuses an unknown parameter with unsupported_filter', async () => {
    const r = await slotsOf('intro', { host_id: 'usr_ben' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'host_id' });
  });
});

describe('slots endpoint is on the upstream bucket; event type reads on the read bucket', () => {
  it('meters slots on upstream and the list and single read on read', async () => {
    const s = await slotsOf('intro');
    expect(s.headers.get('x-ratelimit-bucket')).toBe('upstream');
    const l = await api.get(`${WS}/event_types`, { query: { limit: 1 } });
    expect(l.headers.get('x-ratelimit-bucket')).toBe('read');
    const g = await api.get(`${WS}/event_types/${bySlug('intro').id}`);
    expect(g.headers.get('x-ratelimit-bucket')).toBe('read');
  });

  it('needs event_types:read, which the readonly key holds', async () => {
    const r = await slotsOf('intro', {}, 'readonly');
    expect(r.status).toBe(200);
  });
});
