import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENUMS } from '../../src/api/enums.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { TEST_NOW, type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const LEADS = 500;
let api: TestApi;
let ada: any[];
let ben: any[];
beforeAll(async () => {
  api = await startTestApi({ leads: LEADS, rateLimits: false });
  ada = await readAll(api, '/v1/workspaces/acme/leads', { query: { expand: 'assignees,tags' } });
  ben = await readAll(api, '/v1/workspaces/acme/leads', { key: 'rep' });
});
afterAll(() => api.close());

const values = (rows: any[], field: string) => new Set(rows.map((r) => r[field]));

describe('Seed: acme gets exactly --leads leads, globex about 40, initech about 5, emails unique per workspace', () => {
  it('counts and unique emails', async () => {
    expect(ada).toHaveLength(LEADS);
    expect(new Set(ada.map((l) => l.email.toLowerCase())).size).toBe(LEADS);
    const globex = await readAll(api, '/v1/workspaces/globex/leads');
    expect(globex.length).toBeGreaterThanOrEqual(30);
    expect(globex.length).toBeLessThanOrEqual(50);
    const initech = await readAll(api, '/v1/workspaces/initech/leads');
    expect(initech.length).toBeGreaterThanOrEqual(1);
    expect(initech.length).toBeLessThanOrEqual(10);
  });
});

describe('Seed: leads in every status, including a value a strict reader would not know', () => {
  it('has the five statuses and one more', () => {
    const statuses = values(ada, 'status');
    for (const s of ENUMS.lead_status) expect(statuses).toContain(s);
    expect([...statuses].some((s) => !(ENUMS.lead_status as readonly string[]).includes(s))).toBe(true);
  });
});

describe('Seed: every state, with booked_at / disqualified_at set consistently', () => {
  it('each state appears and carries its own timestamp', () => {
    for (const s of ENUMS.lead_state) expect(values(ada, 'state')).toContain(s);
    for (const l of ada) {
      if (l.state === 'active') expect([l.booked_at, l.disqualified_at]).toEqual([null, null]);
      if (l.state === 'booked') expect(l.booked_at).toMatch(/Z$/);
      if (l.state === 'disqualified') expect(l.disqualified_at).toMatch(/Z$/);
      if (l.meeting_outcome !== null) expect(l.meeting_outcome_at).toMatch(/Z$/);
    }
    expect(ada.some((l) => l.state === 'booked' && l.meeting_outcome !== null)).toBe(true);
  });
});

describe('Seed: every classification, one outside the enum, and null', () => {
  it('has each listed value, an unlisted one and null', () => {
    const cls = values(ada, 'classification');
    for (const c of ENUMS.lead_classification) expect(cls).toContain(c);
    expect(cls).toContain(null);
    expect([...cls].some((c) => c !== null && !(ENUMS.lead_classification as readonly string[]).includes(c))).toBe(true);
  });
});

describe('Seed: groups of leads share one last_message_at at page edges (positions 48-52 and 198-202)', () => {
  it('a tie straddles the 50 and the 200 boundary of the newest-first order', () => {
    for (const edge of [50, 200]) {
      const a = ada[edge - 1];
      const b = ada[edge];
      expect(a.last_message_at).toBe(b.last_message_at);
    }
  });
  it('ties are ordered by the reply id', () => {
    for (let i = 1; i < ada.length; i++) {
      const [p, c] = [ada[i - 1], ada[i]];
      if (p.last_message_at === c.last_message_at) expect(p.latest_reply_id > c.latest_reply_id).toBe(true);
    }
  });
});

describe('Seed: recent rows (last ~15 minutes) have campaign_id and campaign_name null; older rows carry a campaign', () => {
  it('splits on the 15-minute line', async () => {
    const roster = new Map((await readAll(api, '/v1/workspaces/acme/campaigns')).map((c: any) => [c.id, c.name]));
    const line = Date.parse(TEST_NOW) - 15 * 60_000;
    const recent = ada.filter((l) => Date.parse(l.last_message_at) > line);
    expect(recent.length).toBeGreaterThan(0);
    for (const l of recent) expect([l.campaign_id, l.campaign_name]).toEqual([null, null]);
    for (const l of ada.filter((x) => Date.parse(x.last_message_at) <= line)) expect(roster.get(l.campaign_id)).toBe(l.campaign_name);
  });
});

describe('Seed: unread and priority differ between Ada and Ben', () => {
  it('some lead is unread for one and read for the other, and starred by one only', () => {
    const benById = new Map(ben.map((l) => [l.id, l]));
    expect(ada.some((l) => l.unread !== benById.get(l.id).unread)).toBe(true);
    expect(ada.some((l) => l.priority && !benById.get(l.id).priority)).toBe(true);
    expect(ada.some((l) => !l.priority && benById.get(l.id).priority)).toBe(true);
  });
  it('the named split leads behave as documented', () => {
    const byEmail = (rows: any[], e: string) => rows.find((l) => l.email === e);
    expect([byEmail(ada, SPECIAL_EMAILS.readByAda).unread, byEmail(ben, SPECIAL_EMAILS.readByAda).unread]).toEqual([false, true]);
    expect([byEmail(ada, SPECIAL_EMAILS.readByAda).priority, byEmail(ben, SPECIAL_EMAILS.readByAda).priority]).toEqual([false, true]);
    expect([byEmail(ada, SPECIAL_EMAILS.starredByAda).priority, byEmail(ben, SPECIAL_EMAILS.starredByAda).priority]).toEqual([true, false]);
  });
});

describe('Seed: assignments to assignable members (two-part ids), sources auto and manual, some unassigned', () => {
  it('assignees are assignable members of the workspace', async () => {
    const members = new Map((await readAll(api, '/v1/workspaces/acme/members')).map((m: any) => [m.id, m]));
    const sources = new Set<string>();
    for (const l of ada) {
      expect(l.assignees.map((a: any) => a.id)).toEqual(l.assignee_ids);
      for (const a of l.assignees) {
        expect(a.id).toMatch(/^usr_[a-z0-9]+_[a-z0-9]+$/);
        expect(members.get(a.id)?.assignable).toBe(true);
        sources.add(a.assignment_source);
      }
    }
    expect([...sources].sort()).toEqual(['auto', 'manual']);
    expect(ada.some((l) => l.assignee_ids.length === 0)).toBe(true);
  });
  it('lead tags come from the workspace roster', async () => {
    const roster = new Set((await readAll(api, '/v1/workspaces/acme/lead_tags')).map((t: any) => t.id));
    const tagged = ada.filter((l) => l.tags.length > 0);
    expect(tagged.length).toBeGreaterThan(0);
    for (const l of tagged) for (const t of l.tags) expect(roster).toContain(t.id);
  });
});

describe('Seed: each lead has 1-3 inbound replies; latest_reply_id is the newest; some leads were last written by us', () => {
  it('replies of a sample of leads', async () => {
    for (const l of ada.filter((_, i) => i % 25 === 0)) {
      const replies = (await api.get(`/v1/workspaces/acme/leads/${l.id}/replies`)).body.data;
      expect(replies.length).toBeGreaterThanOrEqual(1);
      expect(replies.length).toBeLessThanOrEqual(3);
      expect(replies[0].id).toBe(l.latest_reply_id);
      for (const r of replies) expect(r.direction).toBe('received');
      if (l.last_message_direction === 'received') expect(replies[0].received_at).toBe(l.last_message_at);
      else expect(Date.parse(replies[0].received_at)).toBeLessThan(Date.parse(l.last_message_at));
    }
    expect(values(ada, 'last_message_direction')).toEqual(new Set(['received', 'sent']));
    expect(ada.some((l) => l.responded)).toBe(true);
  });
});

describe('Seed: names, companies and titles vary, a few are null', () => {
  it('variety and nulls', () => {
    expect(values(ada, 'company_name').size).toBeGreaterThan(10);
    expect(values(ada, 'title').size).toBeGreaterThan(8);
    for (const f of ['first_name', 'last_name', 'company_name', 'title']) expect(values(ada, f)).toContain(null);
  });
  it('every special lead named at the top of seed/leads.ts exists', () => {
    const emails = values(ada, 'email');
    for (const e of Object.values(SPECIAL_EMAILS)) expect(emails).toContain(e);
  });
});

describe('Seed: same seed and --now give the same data, byte for byte', () => {
  it('a second sandbox with the same seed answers identically; another seed differs', async () => {
    const twin = await startTestApi({ leads: LEADS, rateLimits: false });
    const other = await startTestApi({ leads: LEADS, rateLimits: false, seed: 2 });
    try {
      const q = { query: { limit: 200, expand: 'assignees,tags,campaign' } };
      const [a, b, c] = await Promise.all([
        api.get('/v1/workspaces/acme/leads', q),
        twin.get('/v1/workspaces/acme/leads', q),
        other.get('/v1/workspaces/acme/leads', q),
      ]);
      expect(JSON.stringify(b.body.data)).toBe(JSON.stringify(a.body.data));
      expect(JSON.stringify(c.body.data)).not.toBe(JSON.stringify(a.body.data));
      const id = a.body.data[7].id;
      const [ma, mb] = await Promise.all([api.get(`/v1/workspaces/acme/leads/${id}/messages`), twin.get(`/v1/workspaces/acme/leads/${id}/messages`)]);
      expect(JSON.stringify(mb.body.data)).toBe(JSON.stringify(ma.body.data));
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});
