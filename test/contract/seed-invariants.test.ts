import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxKeyName } from '../../src/sandbox/index.js';
import { type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

/**
 * The per-lead rules of the spec's States and transitions, checked over every seeded lead of
 * several seeds: what the seed builds must be a state the API's own writes could have left.
 * The read receipt is not part of any resource, so it is read from the sandbox's store.
 */
const SEEDS = [1, 4242, 77];
const LEADS = 400;
/** Each workspace with a key whose owner reaches it, and a second owner where there is one. */
const READERS: Record<string, SandboxKeyName[]> = { acme: ['admin', 'rep'], globex: ['globex', 'admin'] };

interface Seeded {
  api: TestApi;
  leads: Map<string, any[]>;
  /** Each key's view of each workspace's leads, by lead id. */
  views: Map<string, Map<string, any>>;
  owners: Map<SandboxKeyName, string>;
  meetings: Map<string, any[]>;
}

const seeded = new Map<number, Seeded>();
beforeAll(async () => {
  for (const seed of SEEDS) {
    const api = await startTestApi({ seed, leads: LEADS, rateLimits: false });
    const s: Seeded = { api, leads: new Map(), views: new Map(), owners: new Map(), meetings: new Map() };
    for (const [ws, keys] of Object.entries(READERS)) {
      for (const key of keys) {
        const rows = await readAll(api, `/v1/workspaces/${ws}/leads`, { key });
        if (!s.leads.has(ws)) s.leads.set(ws, rows);
        s.views.set(`${ws}/${key}`, new Map(rows.map((l) => [l.id, l])));
        s.owners.set(key, (await api.get('/v1/me', { key })).body.owner.id);
      }
      s.meetings.set(ws, await readAll(api, `/v1/workspaces/${ws}/meetings`));
    }
    seeded.set(seed, s);
  }
}, 120_000);
afterAll(async () => {
  for (const s of seeded.values()) await s.api.close();
});

const ms = (t: string | null | undefined) => (t ? Date.parse(t) : Number.NEGATIVE_INFINITY);
const cases = SEEDS.flatMap((seed) => Object.keys(READERS).map((ws) => [seed, ws] as const));

/** The newest inbound and outbound message times of a lead's conversation. */
async function newestByDirection(api: TestApi, ws: string, leadId: string) {
  const r = await api.get(`/v1/workspaces/${ws}/leads/${leadId}/messages`, { query: { limit: 200 } });
  expect(r.status).toBe(200);
  const newest = { inbound: Number.NEGATIVE_INFINITY, outbound: Number.NEGATIVE_INFINITY };
  for (const m of r.body.data as { direction: 'inbound' | 'outbound'; sent_at: string | null }[]) {
    newest[m.direction] = Math.max(newest[m.direction], ms(m.sent_at));
  }
  return newest;
}

describe('Seed, lead responded flag: "a strictly newer inbound reply sets it back to not responded"', () => {
  it.each(cases)('seed %i, %s: no responded lead has an inbound reply newer than its last outbound message and its last action', async (seed, ws) => {
    const { api, leads } = seeded.get(seed)!;
    const responded = leads.get(ws)!.filter((l) => l.responded);
    expect(responded.length).toBeGreaterThan(0);
    const broken: string[] = [];
    for (const lead of responded) {
      const newest = await newestByDirection(api, ws, lead.id);
      // The mark is the only responded write, and a write is an action on the lead.
      const answeredAt = Math.max(newest.outbound, ms(lead.last_action_at));
      if (newest.inbound > answeredAt) broken.push(`${lead.email} (inbound ${new Date(newest.inbound).toISOString()}, last action ${lead.last_action_at})`);
    }
    expect(broken, `${broken.length} of ${responded.length} responded leads`).toEqual([]);
  });

  it.each(cases)('seed %i, %s: a lead whose newest message is inbound and that no one acted on since is not responded', (seed, ws) => {
    const { leads } = seeded.get(seed)!;
    const unanswered = leads.get(ws)!.filter((l) => l.last_message_direction === 'received' && ms(l.last_action_at) < ms(l.last_message_at));
    expect(unanswered.length).toBeGreaterThan(0);
    expect(unanswered.filter((l) => l.responded).map((l) => l.email)).toEqual([]);
  });
});

describe('Seed, lead unread: "new inbound reply strictly newer than the receipt: unread=true"; POST read "also stamps the workspace-wide receipt"', () => {
  it.each(cases)("seed %i, %s: unread for each key owner exactly when the newest inbound reply is newer than that owner's receipt", (seed, ws) => {
    const { api, owners, views } = seeded.get(seed)!;
    const records = new Map(api.sandbox.store.leads.inGroup(ws).map((l) => [l.id, l]));
    for (const key of READERS[ws]!) {
      const owner = owners.get(key)!;
      const wrong: string[] = [];
      let unread = 0;
      for (const lead of views.get(`${ws}/${key}`)!.values()) {
        const rec = records.get(lead.id)!;
        const receipt = rec.receipts.get(owner);
        const expected = rec.last_inbound_at !== null && (receipt === undefined || ms(rec.last_inbound_at) > ms(receipt));
        if (lead.unread !== expected) wrong.push(lead.email);
        if (lead.unread) unread++;
      }
      expect(wrong, `${key}'s view`).toEqual([]);
      expect(unread).toBeGreaterThan(0);
    }
  });

  it.each(cases)("seed %i, %s: the workspace-wide receipt is no older than any owner's receipt", (seed, ws) => {
    const { api } = seeded.get(seed)!;
    for (const rec of api.sandbox.store.leads.inGroup(ws)) {
      for (const receipt of rec.receipts.values()) expect(ms(rec.workspace_read_at)).toBeGreaterThanOrEqual(ms(receipt));
    }
  });

  it.each(cases)('seed %i, %s: unread and priority differ between the two owners on some lead (they are key-scoped)', (seed, ws) => {
    const { views } = seeded.get(seed)!;
    const [a, b] = READERS[ws]!.map((key) => views.get(`${ws}/${key}`)!);
    const differs = [...a!.values()].filter((l) => b!.get(l.id)?.unread !== l.unread);
    expect(differs.length).toBeGreaterThan(0);
  });
});

describe('Seed, lead state: booked and disqualified carry their timestamps; "the outcome is mirrored to the lead\'s meeting_outcome"', () => {
  it.each(cases)('seed %i, %s: a booked lead has booked_at, a disqualified lead has disqualified_at', (seed, ws) => {
    const { leads } = seeded.get(seed)!;
    for (const l of leads.get(ws)!) {
      if (l.state === 'booked') expect(l.booked_at, l.email).toMatch(/Z$/);
      if (l.state === 'disqualified') expect(l.disqualified_at, l.email).toMatch(/Z$/);
    }
  });

  it.each(cases)("seed %i, %s: a lead's meeting_outcome and meeting_outcome_at are those of its meeting whose outcome was set last", (seed, ws) => {
    const { leads, meetings } = seeded.get(seed)!;
    const lastOutcome = new Map<string, any>();
    for (const m of meetings.get(ws)!) {
      if (!m.lead_id || m.outcome === null) continue;
      const prev = lastOutcome.get(m.lead_id);
      if (!prev || ms(m.outcome_at) > ms(prev.outcome_at)) lastOutcome.set(m.lead_id, m);
    }
    for (const l of leads.get(ws)!) {
      const m = lastOutcome.get(l.id);
      expect([l.meeting_outcome, l.meeting_outcome_at], l.email).toEqual(m ? [m.outcome, m.outcome_at] : [null, null]);
    }
  });

  it.each(cases)('seed %i, %s: a meeting with an outcome names when and by whom it was set, and is locked', (seed, ws) => {
    const { leads, meetings } = seeded.get(seed)!;
    const ids = new Set(leads.get(ws)!.map((l) => l.id));
    for (const m of meetings.get(ws)!) {
      if (m.outcome === null || !ids.has(m.lead_id)) continue;
      expect(m.outcome_at, m.id).toMatch(/Z$/);
      expect(m.outcome_by_id, m.id).toMatch(/^usr_/);
      expect(m.locked, m.id).toBe(true);
    }
  });
});
