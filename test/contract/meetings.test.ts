import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENUMS } from '../../src/api/enums.js';
import { isId } from '../../src/api/ids.js';
import { meetingResource } from '../../src/api/resources.js';
import { compareKeys } from '../../src/sandbox/paging.js';
import type { MeetingRec } from '../../src/sandbox/store/types.js';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const WS = '/v1/workspaces/acme';
let api: TestApi;
let all: any[];

const rec = (id: string): MeetingRec => api.sandbox.store.meetings.get(id)!;
const outcome = (id: string, body: Record<string, unknown>, key: 'admin' | 'rep' | 'readonly' = 'admin') =>
  api.call('POST', `${WS}/meetings/${id}/outcome`, { body, key });
/** An unlocked meeting without an outcome that no earlier test has touched. */
const fresh = (withLead = true): MeetingRec => {
  const m = api.sandbox.store.meetings.inGroup('acme').find((x) => !x.locked && x.outcome === null && (x.lead_id !== null) === withLead && !used.has(x.id));
  if (!m) throw new Error('no fresh meeting left');
  used.add(m.id);
  return m;
};
const used = new Set<string>();

beforeAll(async () => {
  api = await startTestApi({ leads: 120, bucketLimits: { read: 10_000, write: 10_000, upstream: 10_000 } });
  all = await readAll(api, `${WS}/meetings`);
});
afterAll(() => api.close());

describe('meeting resource: both sources, with and without outcome, internal_notes and meet_link not on lists', () => {
  it('returns every field of the meeting resource', () => {
    expect(all.length).toBeGreaterThan(3);
    for (const m of all) {
      expect(meetingResource.safeParse(m).success).toBe(true);
      expect(m).toMatchObject({ object: 'meeting', workspace: 'acme' });
      expect(isId('meeting', m.id)).toBe(true);
      expect(m).not.toHaveProperty('internal_notes');
      expect(m).not.toHaveProperty('meet_link');
      for (const f of ['host_id', 'booked_by_id', 'outcome_by_id']) if (m[f] !== null) expect(isId('user', m[f])).toBe(true);
      expect(ENUMS.meeting_confirmation_status).toContain(m.confirmation_status);
    }
  });

  it('has meetings of both sources, with and without outcome, a locked one, and a calendar meeting without a lead', () => {
    expect(new Set(all.map((m) => m.source))).toEqual(new Set(['mark_booked', 'calendar']));
    expect(all.some((m) => m.outcome !== null)).toBe(true);
    expect(all.some((m) => m.outcome === null)).toBe(true);
    expect(all.some((m) => m.locked)).toBe(true);
    expect(all.some((m) => m.lead_id === null && m.source === 'calendar')).toBe(true);
  });

  it('links calendar meetings to event types of the workspace, with invitee, custom fields and UTM parameters', () => {
    const cal = all.filter((m) => m.source === 'calendar' && m.event_type_id !== null);
    expect(cal.length).toBeGreaterThan(0);
    for (const m of cal) {
      expect(api.sandbox.store.eventTypes.get(m.event_type_id)?.workspace).toBe('acme');
      expect(Object.keys(m.utm_params).length).toBeGreaterThan(0);
      expect(typeof m.invitee.email).toBe('string');
    }
    expect(cal.some((m) => Object.keys(m.custom_fields).length > 0)).toBe(true);
    expect(all.some((m) => m.guests.length > 0)).toBe(true);
  });
});

describe('fixed sort key: meetings by (booked_at, id); starting_after is an alias of cursor', () => {
  it('is descending by default and flips with order=asc', async () => {
    for (let i = 1; i < all.length; i++) expect(compareKeys([all[i - 1].booked_at, all[i - 1].id], [all[i].booked_at, all[i].id])).toBeGreaterThan(0);
    const asc = await readAll(api, `${WS}/meetings`, { query: { order: 'asc' } });
    expect(asc.map((m) => m.id)).toEqual([...all].reverse().map((m) => m.id));
  });

  it('pages with starting_after exactly as with cursor', async () => {
    const p1 = await api.get(`${WS}/meetings`, { query: { limit: 2 } });
    const viaAlias = await api.get(`${WS}/meetings`, { query: { limit: 2, starting_after: p1.body.next_cursor } });
    expect(viaAlias.status).toBe(200);
    expect([...p1.body.data, ...viaAlias.body.data].map((m: any) => m.id)).toEqual(all.slice(0, 4).map((m) => m.id));
    const both = await api.get(`${WS}/meetings`, { query: { cursor: p1.body.next_cursor, starting_after: p1.body.next_cursor } });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('invalid_request');
  });
});

describe('meetings list is on the upstream bucket; the single read on read', () => {
  it('reports x-ratelimit-bucket: upstream for the list and read for a single meeting', async () => {
    const l = await api.get(`${WS}/meetings`, { query: { limit: 1 } });
    expect(l.headers.get('x-ratelimit-bucket')).toBe('upstream');
    const g = await api.get(`${WS}/meetings/${all[0].id}`);
    expect(g.headers.get('x-ratelimit-bucket')).toBe('read');
  });
});

describe('meeting list filters: outcome, source, host_id, event_type_id, booked and starts ranges', () => {
  const ids = (xs: any[]) => xs.map((m) => m.id).sort();

  it('outcome takes a comma list of the five values and none', async () => {
    const r = await readAll(api, `${WS}/meetings`, { query: { outcome: 'none,showed' } });
    expect(ids(r)).toEqual(ids(all.filter((m) => m.outcome === null || m.outcome === 'showed')));
    const bad = await api.get(`${WS}/meetings`, { query: { outcome: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'unsupported_filter', param: 'outcome' });
  });

  it('source, host_id (one-part) and event_type_id keep matching meetings', async () => {
    const cal = await readAll(api, `${WS}/meetings`, { query: { source: 'calendar' } });
    expect(ids(cal)).toEqual(ids(all.filter((m) => m.source === 'calendar')));
    const host = all.find((m) => m.host_id !== null).host_id;
    const byHost = await readAll(api, `${WS}/meetings`, { query: { host_id: host } });
    expect(ids(byHost)).toEqual(ids(all.filter((m) => m.host_id === host)));
    const et = all.find((m) => m.event_type_id !== null).event_type_id;
    const byType = await readAll(api, `${WS}/meetings`, { query: { event_type_id: et } });
    expect(ids(byType)).toEqual(ids(all.filter((m) => m.event_type_id === et)));
    const two = await api.get(`${WS}/meetings`, { query: { host_id: 'usr_ben_acme' } });
    expect(two.body.error).toMatchObject({ code: 'invalid_id', param: 'host_id' });
  });

  it('booked_since/booked_before and starts_after/starts_before are exclusive bounds', async () => {
    const sorted = [...all].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
    const lo = sorted[1].starts_at;
    const hi = sorted[sorted.length - 2].starts_at;
    const r = await readAll(api, `${WS}/meetings`, { query: { starts_after: lo, starts_before: hi } });
    expect(ids(r)).toEqual(ids(all.filter((m) => Date.parse(m.starts_at) > Date.parse(lo) && Date.parse(m.starts_at) < Date.parse(hi))));
    const pivot = all[Math.floor(all.length / 2)].booked_at;
    const since = await readAll(api, `${WS}/meetings`, { query: { booked_since: pivot } });
    expect(ids(since)).toEqual(ids(all.filter((m) => Date.parse(m.booked_at) > Date.parse(pivot))));
    const before = await readAll(api, `${WS}/meetings`, { query: { booked_before: pivot } });
    expect(ids(before)).toEqual(ids(all.filter((m) => Date.parse(m.booked_at) < Date.parse(pivot))));
  });

  it('refuses an inverted range with invalid_request, and a day where a date-time is due', async () => {
    const r = await api.get(`${WS}/meetings`, { query: { starts_after: '2026-12-01T00:00:00Z', starts_before: '2026-11-01T00:00:00Z' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'starts_before' });
    const d = await api.get(`${WS}/meetings`, { query: { booked_since: '2026-11-01' } });
    expect(d.body.error).toMatchObject({ code: 'invalid_request', param: 'booked_since' });
  });

  it('refuses an unknown filter with unsupported_filter', async () => {
    const r = await api.get(`${WS}/meetings`, { query: { lead_id: all[0].lead_id ?? 'lead_x' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'lead_id' });
  });
});

describe('single meeting: internal_notes only for keys holding meetings:write; meet_link never', () => {
  it('shows internal_notes to the admin key and hides it from the readonly key', async () => {
    const withNotes = api.sandbox.store.meetings.inGroup('acme').find((m) => m.internal_notes !== null)!;
    const admin = await api.get(`${WS}/meetings/${withNotes.id}`);
    expect(admin.status).toBe(200);
    expect(meetingResource.safeParse(admin.body).success).toBe(true);
    expect(admin.body.internal_notes).toBe(withNotes.internal_notes);
    expect(admin.body).not.toHaveProperty('meet_link');
    const ro = await api.get(`${WS}/meetings/${withNotes.id}`, { key: 'readonly' });
    expect(ro.status).toBe(200);
    expect(ro.body).not.toHaveProperty('internal_notes');
    expect(ro.body).not.toHaveProperty('meet_link');
    const { internal_notes: _n, ...rest } = admin.body;
    expect(ro.body).toEqual(rest);
  });

  it('gives internal_notes as null, not absent, when a meeting has none', async () => {
    const without = api.sandbox.store.meetings.inGroup('acme').find((m) => m.internal_notes === null)!;
    const r = await api.get(`${WS}/meetings/${without.id}`, { key: 'rep' });
    expect(r.body.internal_notes).toBeNull();
  });

  it('answers 404 not_found for a meeting of another workspace and invalid_id for another kind', async () => {
    const foreign = api.sandbox.store.meetings.inGroup('globex')[0]!;
    const r = await api.get(`${WS}/meetings/${foreign.id}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'meeting_id' });
    const k = await api.get(`${WS}/meetings/tsk_abc`);
    expect(k.body.error).toMatchObject({ code: 'invalid_id', param: 'meeting_id' });
  });
});

describe('meeting outcome: sets outcome, outcome_at, outcome_by_id; locked=true; mirrored to the lead without changing its status', () => {
  it('sets the outcome and mirrors it to the lead, whose status stays as it was', async () => {
    const m = fresh();
    const lead = api.sandbox.store.leads.get(m.lead_id!)!;
    const status = lead.status;
    const r = await outcome(m.id, { outcome: 'no_show' }, 'rep');
    expect(r.status).toBe(200);
    expect(meetingResource.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({ id: m.id, outcome: 'no_show', outcome_by_id: 'usr_ben', locked: true });
    expect(r.body.outcome_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body).not.toHaveProperty('internal_notes');
    expect(r.body.effects).toEqual({
      meeting_outcome_set: true,
      replies_updated: api.sandbox.store.repliesByLead.get(lead.id).map((x) => x.id),
      provider_writes: [],
    });
    expect(lead).toMatchObject({ meeting_outcome: 'no_show', meeting_outcome_at: r.body.outcome_at, status });
    const read = await api.get(`${WS}/meetings/${m.id}`);
    expect(read.body).toMatchObject({ outcome: 'no_show', locked: true });
    expect(r.headers.get('x-ratelimit-bucket')).toBe('write');
  });

  it('accepts each of the five values and refuses any other with invalid_request naming outcome', async () => {
    const target = fresh();
    for (const value of ENUMS.meeting_outcome) {
      const r = await outcome(target.id, { outcome: value, force: true });
      expect([r.status, r.body.outcome, r.body.locked]).toEqual([200, value, true]);
    }
    const m = fresh();
    for (const body of [{ outcome: 'showed_up' }, {}, { outcome: 'showed', force: 'yes' }, { outcome: 'showed', note: 'x' }]) {
      const r = await outcome(m.id, body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(['outcome', 'force', 'note']).toContain(r.body.error.param);
    }
    expect(rec(m.id).outcome).toBeNull();
  });

  it('sets an outcome on a meeting without a lead, updating no replies', async () => {
    const m = fresh(false);
    const r = await outcome(m.id, { outcome: 'showed' });
    expect(r.status).toBe(200);
    expect(r.body.effects).toEqual({ meeting_outcome_set: true, replies_updated: [], provider_writes: [] });
  });

  it('replaces a calendar-synced outcome on an unlocked meeting without force', async () => {
    const m = api.sandbox.store.meetings.inGroup('acme').find((x) => !x.locked && x.outcome !== null)!;
    const r = await outcome(m.id, { outcome: 'rescheduled' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ outcome: 'rescheduled', locked: true });
  });

  it('answers 404 for a meeting of another workspace and 403 for a key without meetings:write', async () => {
    const foreign = api.sandbox.store.meetings.inGroup('globex')[0]!;
    const r = await outcome(foreign.id, { outcome: 'showed' });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', param: 'meeting_id' });
    const ro = await outcome(all[0].id, { outcome: 'showed' }, 'readonly');
    expect(ro.status).toBe(403);
    expect(ro.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'meetings:write' });
  });
});

describe('meeting outcome conflict: a locked meeting refuses a different outcome without force=true', () => {
  it('answers 409 conflict and changes nothing', async () => {
    const m = api.sandbox.store.meetings.inGroup('acme').find((x) => x.locked && x.outcome !== 'cancelled' && x.lead_id)!;
    const before = { ...m };
    const lead = { ...api.sandbox.store.leads.get(m.lead_id!)! };
    const r = await outcome(m.id, { outcome: 'cancelled' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'conflict', param: 'outcome' });
    expect(rec(m.id)).toEqual(before);
    expect(api.sandbox.store.leads.get(m.lead_id!)!.meeting_outcome).toBe(lead.meeting_outcome);
    const noForce = await outcome(m.id, { outcome: 'cancelled', force: false });
    expect(noForce.status).toBe(409);
  });

  it('repeating the same outcome on a locked meeting succeeds and changes nothing', async () => {
    const m = api.sandbox.store.meetings.inGroup('acme').find((x) => x.locked && x.outcome)!;
    const before = { ...m };
    const r = await outcome(m.id, { outcome: m.outcome! });
    expect(r.status).toBe(200);
    expect(r.body.effects).toEqual({ meeting_outcome_set: false, replies_updated: [], provider_writes: [] });
    expect(rec(m.id)).toEqual(before);
  });

  it('force=true replaces the outcome and stamps the new author', async () => {
    const m = api.sandbox.store.meetings.inGroup('acme').find((x) => x.locked && x.outcome !== 'showed' && x.lead_id)!;
    const r = await outcome(m.id, { outcome: 'showed', force: true }, 'rep');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ outcome: 'showed', outcome_by_id: 'usr_ben', locked: true });
    expect(r.body.effects.meeting_outcome_set).toBe(true);
    expect(api.sandbox.store.leads.get(m.lead_id!)!.meeting_outcome).toBe('showed');
  });
});
