import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW, type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

let api: TestApi;
/** The sandbox's now, which stands still: the default windows end exactly here. */
const NOW = Date.parse(TEST_NOW);
beforeAll(async () => {
  // Buckets stay on (bucket headers are asserted) but wide enough for this file's calls.
  api = await startTestApi({ bucketLimits: { read: 2000, upstream: 2000 } });
  api.sandbox.clock.now = () => NOW;
});
afterAll(() => api.close());

const ACME = '/v1/workspaces/acme';
const DAY = 86_400_000;
const store = () => api.sandbox.store;
const ms = (t: string) => Date.parse(t);
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const addDays = (d: string, n: number) => dayOf(ms(`${d}T00:00:00Z`) + n * DAY);
const today = () => dayOf(NOW);

/** Expected figures, computed here from the raw store over a half-open window [from, to). */
function expected(w: { from: string; to: string }, ws = 'acme') {
  const inW = (t: string | null) => t !== null && ms(t) >= ms(w.from) && ms(t) < ms(w.to);
  const replies = [...store().replies.inGroup(ws)].filter((r) => inW(r.received_at));
  const meetings = [...store().meetings.inGroup(ws)].filter((m) => inW(m.booked_at));
  return { replies, meetings, positive: replies.filter((r) => r.status === 'interested') };
}

async function summary(query: Record<string, string> = {}) {
  const r = await api.get(`${ACME}/insights/summary`, { query });
  expect(r.status).toBe(200);
  return r.body;
}

function isRate(x: unknown): boolean {
  return x === null || (typeof x === 'number' && x >= 0 && x <= 1);
}

const WIDE = { from: '2026-06-01', to: '2026-11-20' };

describe('insights_summary: every field of the resource', () => {
  it('has workspace, window, funnel, headline, speed_to_lead, per_rep, speed_buckets, generated_at', async () => {
    const s = await summary(WIDE);
    expect(Object.keys(s).sort()).toEqual(['funnel', 'generated_at', 'headline', 'object', 'per_rep', 'speed_buckets', 'speed_to_lead', 'window', 'workspace']);
    expect(s.object).toBe('insights_summary');
    expect(s.workspace).toBe('acme');
    expect(Object.keys(s.funnel).sort()).toEqual(['all_responses', 'booked_meetings', 'positive_responses', 'showed_meetings']);
    expect(Object.keys(s.headline).sort()).toEqual([
      'booked_interested_leads',
      'booking_rate',
      'meetings_with_outcome',
      'show_rate',
      'total_interested_leads',
      'total_meetings_booked',
    ]);
    expect(Object.keys(s.speed_to_lead).sort()).toEqual(['first_response_avg_sec', 'first_response_count', 'followup_avg_sec', 'followup_count']);
    expect(s.per_rep.length).toBeGreaterThan(1);
    for (const r of s.per_rep) {
      expect(Object.keys(r).sort()).toEqual([
        'booked_from_interested',
        'booking_rate',
        'first_response_avg_sec',
        'first_response_count',
        'followup_avg_sec',
        'followup_count',
        'interested_leads',
        'meetings_booked',
        'meetings_with_outcome',
        'member_id',
        'name',
        'show_rate',
        'showed_meetings',
      ]);
      expect(r.member_id).toMatch(/^usr_[a-z0-9]+_[a-z0-9]+$/);
    }
    expect(s.speed_buckets.length).toBeGreaterThan(1);
    for (const b of s.speed_buckets) expect(Object.keys(b).sort()).toEqual(['booked', 'booking_rate', 'label', 'n', 'show_rate', 'showed']);
    expect(s.generated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
  it('is read on the read bucket', async () => {
    const r = await api.get(`${ACME}/insights/summary`);
    expect(r.headers.get('x-ratelimit-bucket')).toBe('read');
  });
});

describe('Insight windows: from/to; default the last 30 days before now; a day `to` includes that day (our choice)', () => {
  it('with no bounds the window is the 30 days ending now', async () => {
    const s = await summary();
    expect(ms(s.window.to)).toBe(NOW);
    expect(ms(s.window.to) - ms(s.window.from)).toBe(30 * DAY);
  });
  it('days: from at 00:00Z of its day, to at the end of its day (half-open window)', async () => {
    const s = await summary({ from: '2026-11-01', to: '2026-11-10' });
    expect(s.window).toEqual({ from: '2026-11-01T00:00:00Z', to: '2026-11-11T00:00:00Z' });
  });
  it('date-times are taken as given', async () => {
    const s = await summary({ from: '2026-11-01T06:30:00Z', to: '2026-11-02T18:00:00Z' });
    expect(s.window).toEqual({ from: '2026-11-01T06:30:00Z', to: '2026-11-02T18:00:00Z' });
  });
  it('only from: the window runs to now', async () => {
    const s = await summary({ from: '2026-10-01' });
    expect(s.window.from).toBe('2026-10-01T00:00:00Z');
    expect(ms(s.window.to)).toBe(NOW);
  });
  it('a bound that is not a day or a date-time is 400 invalid_request naming it', async () => {
    for (const param of ['from', 'to']) {
      const r = await api.get(`${ACME}/insights/summary`, { query: { [param]: 'last-week' } });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });
  it('from after to is 400 invalid_request naming from', async () => {
    const r = await api.get(`${ACME}/insights/summary`, { query: { from: '2026-11-10', to: '2026-11-01' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
});

describe('Insight windows: summary and campaigns accept at most 366 days; over the cap is 400 invalid_request, never truncated', () => {
  it.each([['summary'], ['campaigns']])('%s: 366 days pass, 367 are refused naming from', async (which) => {
    const ok = await api.get(`${ACME}/insights/${which}`, { query: { from: '2025-11-20', to: '2026-11-20' } });
    expect(ok.status).toBe(200);
    const over = await api.get(`${ACME}/insights/${which}`, { query: { from: '2025-11-20', to: '2026-11-21' } });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
  it('only from, more than 366 days ago, is refused', async () => {
    const r = await api.get(`${ACME}/insights/summary`, { query: { from: addDays(today(), -400) } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
});

describe("insights_summary: funnel and headline are consistent with the store's replies and meetings", () => {
  it.each([[WIDE], [{ from: '2026-11-01', to: '2026-11-20' }], [{}]])('window %j', async (query) => {
    const s = await summary(query as Record<string, string>);
    const e = expected(s.window);
    expect(e.replies.length).toBeGreaterThan(0);
    expect(s.funnel.all_responses).toBe(e.replies.length);
    expect(s.funnel.positive_responses).toBe(e.positive.length);
    expect(s.funnel.booked_meetings).toBe(e.meetings.length);
    expect(s.funnel.showed_meetings).toBe(e.meetings.filter((m) => m.outcome === 'showed').length);
    const withOutcome = e.meetings.filter((m) => m.outcome !== null).length;
    expect(s.headline.total_meetings_booked).toBe(e.meetings.length);
    expect(s.headline.meetings_with_outcome).toBe(withOutcome);
    expect(s.headline.show_rate).toBe(withOutcome ? s.funnel.showed_meetings / withOutcome : null);
    const interested = new Set(e.positive.map((r) => r.lead_id));
    const bookedLeads = new Set(e.meetings.map((m) => m.lead_id));
    const bookedInterested = [...interested].filter((id) => bookedLeads.has(id)).length;
    expect(s.headline.total_interested_leads).toBe(interested.size);
    expect(s.headline.booked_interested_leads).toBe(bookedInterested);
    expect(s.headline.booking_rate).toBe(interested.size ? bookedInterested / interested.size : null);
  });
  it('the wide window has positive responses, meetings and outcomes to count', async () => {
    const s = await summary(WIDE);
    expect(s.funnel.positive_responses).toBeGreaterThan(0);
    expect(s.funnel.booked_meetings).toBeGreaterThan(0);
    expect(s.headline.meetings_with_outcome).toBeGreaterThan(0);
  });
});

describe('Rates are ratios in [0,1], never percentages; null when there is no denominator', () => {
  it('every rate of a busy window is in [0,1] or null', async () => {
    const s = await summary(WIDE);
    const rates = [
      s.headline.show_rate,
      s.headline.booking_rate,
      ...s.per_rep.flatMap((r: any) => [r.show_rate, r.booking_rate]),
      ...s.speed_buckets.flatMap((b: any) => [b.booking_rate, b.show_rate]),
    ];
    for (const x of rates) expect(isRate(x)).toBe(true);
    expect(rates.some((x) => typeof x === 'number' && x > 0)).toBe(true);
  });
  it('a window with no activity has zero counts and null rates and averages', async () => {
    const s = await summary({ from: '2020-01-01', to: '2020-01-31' });
    expect(s.funnel).toEqual({ all_responses: 0, positive_responses: 0, booked_meetings: 0, showed_meetings: 0 });
    expect(s.headline.show_rate).toBeNull();
    expect(s.headline.booking_rate).toBeNull();
    expect(s.speed_to_lead).toEqual({ first_response_avg_sec: null, first_response_count: 0, followup_avg_sec: null, followup_count: 0 });
    for (const b of s.speed_buckets) expect([b.n, b.booking_rate, b.show_rate]).toEqual([0, null, null]);
  });
});

describe('insights_summary: speed_to_lead and speed_buckets cover first responses since the feature began', () => {
  /** The sandbox's definition, restated: a lead's responded stamp against the newest reply before it. */
  function samples(w: { from: string; to: string }) {
    const since = store().anchor.getTime() - 60 * DAY;
    const out: { lead: string; sec: number; first: boolean; members: string[] }[] = [];
    for (const lead of store().leads.inGroup('acme')) {
      if (!lead.responded_at) continue;
      const replies = store()
        .repliesByLead.get(lead.id)
        .filter((r) => r.received_at);
      const before = replies.filter((r) => ms(r.received_at!) <= ms(lead.responded_at!)).sort((a, b) => ms(b.received_at!) - ms(a.received_at!));
      const answered = before[0];
      if (!answered) continue;
      const at = ms(answered.received_at!);
      if (at < since || at < ms(w.from) || at >= ms(w.to)) continue;
      out.push({
        lead: lead.id,
        sec: Math.round((ms(lead.responded_at) - at) / 1000),
        first: replies.every((r) => ms(r.received_at!) >= at),
        members: lead.assignments.map((a) => a.member_id),
      });
    }
    return out;
  }
  const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

  it('counts and averages match the store', async () => {
    const s = await summary(WIDE);
    const all = samples(s.window);
    const first = all.filter((x) => x.first).map((x) => x.sec);
    const follow = all.filter((x) => !x.first).map((x) => x.sec);
    expect(first.length).toBeGreaterThan(0);
    expect(s.speed_to_lead).toEqual({
      first_response_avg_sec: mean(first),
      first_response_count: first.length,
      followup_avg_sec: mean(follow),
      followup_count: follow.length,
    });
    for (const r of s.per_rep) {
      expect(r.first_response_count).toBe(all.filter((x) => x.first && x.members.includes(r.member_id)).length);
      expect(r.followup_count).toBe(all.filter((x) => !x.first && x.members.includes(r.member_id)).length);
    }
  });
  it('replies older than 60 days before the anchor (before the feature began) are not measured', async () => {
    const old = await summary({ from: '2026-01-01', to: dayOf(store().anchor.getTime() - 61 * DAY) });
    expect(old.funnel.all_responses).toBeGreaterThan(0);
    expect(old.speed_to_lead.first_response_count + old.speed_to_lead.followup_count).toBe(0);
  });
  it('the buckets split the first responses: n adds up, booked <= n, rates follow', async () => {
    const s = await summary(WIDE);
    expect(s.speed_buckets.reduce((n: number, b: any) => n + b.n, 0)).toBe(s.speed_to_lead.first_response_count);
    for (const b of s.speed_buckets) {
      expect(b.booked).toBeLessThanOrEqual(b.n);
      expect(b.showed).toBeLessThanOrEqual(b.booked);
      expect(b.booking_rate).toBe(b.n ? b.booked / b.n : null);
      expect(b.show_rate).toBe(b.booked ? b.showed / b.booked : null);
    }
  });
});

describe('insights_summary: member_id filters to one member (two-part member id)', () => {
  it('per_rep holds only that member, and the funnel is theirs', async () => {
    const all = await summary(WIDE);
    for (const rep of all.per_rep) {
      const s = await summary({ ...WIDE, member_id: rep.member_id });
      expect(s.per_rep).toEqual([rep]);
      expect(s.funnel.booked_meetings).toBe(rep.meetings_booked);
      expect(s.funnel.showed_meetings).toBe(rep.showed_meetings);
      expect(s.headline.total_interested_leads).toBe(rep.interested_leads);
      expect(s.speed_to_lead.first_response_count).toBe(rep.first_response_count);
    }
  });
  it("a member's funnel counts the replies of leads assigned to them and the meetings they host", async () => {
    const s = await summary({ ...WIDE, member_id: 'usr_ben_acme' });
    const e = expected(s.window);
    const assigned = (leadId: string) =>
      store()
        .leads.get(leadId)!
        .assignments.some((a) => a.member_id === 'usr_ben_acme');
    expect(s.funnel.all_responses).toBe(e.replies.filter((r) => assigned(r.lead_id)).length);
    expect(s.funnel.booked_meetings).toBe(e.meetings.filter((m) => m.host_id === 'usr_ben').length);
    expect(s.funnel.all_responses).toBeGreaterThan(0);
  });
  it('a one-part user id is 400 invalid_id; a member of another workspace is 400 invalid_request', async () => {
    const a = await api.get(`${ACME}/insights/summary`, { query: { member_id: 'usr_ben' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'invalid_id', param: 'member_id' });
    const b = await api.get(`${ACME}/insights/summary`, { query: { member_id: 'usr_hal_globex' } });
    expect(b.status).toBe(400);
    expect(b.body.error).toMatchObject({ code: 'invalid_request', param: 'member_id' });
  });
});

describe('insights need insights:read, which the user role does not permit', () => {
  it.each([['rep'], ['demoted']] as const)('the %s key is 403 insufficient_scope', async (key) => {
    const r = await api.get(`${ACME}/insights/summary`, { key });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'insights:read' });
  });
});

describe('campaign_insight: per campaign figures; steps without booked/showed; no open tracking', () => {
  const CAMPAIGN_KEYS = [
    'booked',
    'bounced',
    'campaign_id',
    'campaign_name',
    'contacts',
    'emails_sent',
    'interested',
    'object',
    'replies',
    'showed',
    'status',
    'steps',
    'tags',
  ];
  const STEP_KEYS = ['contacts', 'interested', 'label', 'object', 'replies', 'sent', 'step_id', 'subject'];

  it('has exactly the spec fields, on the upstream bucket', async () => {
    const r = await api.get(`${ACME}/insights/campaigns`, { query: WIDE });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-bucket')).toBe('upstream');
    const list = await readAll(api, `${ACME}/insights/campaigns`, { query: WIDE });
    expect(list.length).toBe(store().campaigns.inGroup('acme').length);
    for (const c of list) {
      expect(Object.keys(c).sort()).toEqual(CAMPAIGN_KEYS);
      expect(c.object).toBe('campaign_insight');
      for (const st of c.steps) {
        expect(Object.keys(st).sort()).toEqual(STEP_KEYS);
        expect(st.object).toBe('campaign_step');
        expect(Number.isInteger(st.step_id)).toBe(true);
      }
    }
  });
  it('emails_sent >= contacts; steps add up to the campaign; step 1 reaches the contacts', async () => {
    const list = await readAll(api, `${ACME}/insights/campaigns`, { query: WIDE });
    expect(list.some((c) => c.emails_sent > 0)).toBe(true);
    for (const c of list) {
      expect(c.emails_sent).toBeGreaterThanOrEqual(c.contacts);
      expect(c.bounced).toBeLessThanOrEqual(c.contacts);
      expect(c.steps.reduce((n: number, s: any) => n + s.sent, 0)).toBe(c.emails_sent);
      expect(c.steps.reduce((n: number, s: any) => n + s.replies, 0)).toBe(c.replies);
      expect(c.steps.reduce((n: number, s: any) => n + s.interested, 0)).toBe(c.interested);
      if (c.steps.length) expect(c.steps[0].contacts).toBe(c.contacts);
      expect(c.interested).toBeLessThanOrEqual(c.replies);
      expect(c.showed).toBeLessThanOrEqual(c.booked);
    }
  });
  it('replies, interested, booked and showed are counted from the store for that campaign within the window', async () => {
    const list = await readAll(api, `${ACME}/insights/campaigns`, { query: WIDE });
    const window = (await summary(WIDE)).window;
    const e = expected(window);
    for (const c of list) {
      const replies = e.replies.filter((r) => r.campaign_id === c.campaign_id);
      const meetings = e.meetings.filter((m) => m.lead_id && store().leads.get(m.lead_id)?.campaign_id === c.campaign_id);
      expect(c.replies).toBe(replies.length);
      expect(c.interested).toBe(replies.filter((r) => r.status === 'interested').length);
      expect(c.booked).toBe(meetings.length);
      expect(c.showed).toBe(meetings.filter((m) => m.outcome === 'showed').length);
      const rec = store().campaigns.get(c.campaign_id)!;
      expect(c.campaign_name).toBe(rec.name);
      expect(c.status).toBe(rec.status);
      expect(c.tags.map((t: any) => t.id)).toEqual(rec.tag_ids);
    }
    expect(list.reduce((n, c) => n + c.replies, 0)).toBeGreaterThan(0);
  });
  it('campaign_id filters to that one campaign', async () => {
    const id = store().campaigns.inGroup('acme')[1]!.id;
    const list = await readAll(api, `${ACME}/insights/campaigns`, { query: { ...WIDE, campaign_id: id } });
    expect(list.map((c) => c.campaign_id)).toEqual([id]);
  });
  it('an unknown campaign, or one of another workspace, is 404 not_found naming campaign_id', async () => {
    const globex = store().campaigns.inGroup('globex')[0]!.id;
    for (const campaign_id of ['cmp_nosuchcampaign', globex]) {
      const r = await api.get(`${ACME}/insights/campaigns`, { query: { campaign_id } });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', param: 'campaign_id' });
    }
    const bad = await api.get(`${ACME}/insights/campaigns`, { query: { campaign_id: 'ctg_abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_id', param: 'campaign_id' });
  });
  it('a page of one at a time walks every campaign once', async () => {
    const whole = (await readAll(api, `${ACME}/insights/campaigns`, { query: WIDE })).map((c) => c.campaign_id);
    const walked = (await readAll(api, `${ACME}/insights/campaigns`, { query: { ...WIDE, limit: 1 } })).map((c) => c.campaign_id);
    expect(walked).toEqual(whole);
  });
});

describe('daily_point: the series is dense over UTC days; days without activity are zeros', () => {
  it('one point per day from..to, both included, in date order, with exactly the spec fields', async () => {
    const points = await readAll(api, `${ACME}/insights/daily`, { query: { from: '2026-09-01', to: '2026-11-20' } });
    expect(points.length).toBe(81);
    points.forEach((p, i) => {
      expect(Object.keys(p).sort()).toEqual(['booked', 'date', 'emails_sent', 'object', 'positive_responses', 'responses']);
      expect(p.object).toBe('daily_point');
      expect(p.date).toBe(addDays('2026-09-01', i));
    });
  });
  it('a window with no activity is all zeros, not empty', async () => {
    const points = await readAll(api, `${ACME}/insights/daily`, { query: { from: '2020-03-01', to: '2020-03-10' } });
    expect(points.length).toBe(10);
    for (const p of points) expect([p.emails_sent, p.responses, p.positive_responses, p.booked]).toEqual([0, 0, 0, 0]);
  });
  it('the default window is the 30 days ending today (UTC)', async () => {
    const points = await readAll(api, `${ACME}/insights/daily`);
    expect(points.length).toBe(30);
    expect(points.at(-1).date).toBe(today());
    expect(points[0].date).toBe(addDays(today(), -29));
  });
  it('is read on the upstream bucket', async () => {
    const r = await api.get(`${ACME}/insights/daily`);
    expect(r.headers.get('x-ratelimit-bucket')).toBe('upstream');
  });
  it('a page of seven at a time walks the series once', async () => {
    const q = { from: '2026-08-01', to: '2026-10-31' };
    const whole = (await readAll(api, `${ACME}/insights/daily`, { query: q })).map((p) => p.date);
    const walked = (await readAll(api, `${ACME}/insights/daily`, { query: { ...q, limit: 7 } })).map((p) => p.date);
    expect(walked).toEqual(whole);
  });
});

describe('daily_point: figures are consistent with the store and with the other insight calls', () => {
  const q = { from: '2026-08-23', to: '2026-11-20' };
  it("responses, positive_responses and booked per day equal the store's replies and meetings of that UTC day", async () => {
    const points = await readAll(api, `${ACME}/insights/daily`, { query: q });
    const e = expected({ from: `${q.from}T00:00:00Z`, to: `${addDays(q.to, 1)}T00:00:00Z` });
    for (const p of points) {
      const onDay = (t: string | null) => t !== null && dayOf(ms(t)) === p.date;
      expect(p.responses).toBe(e.replies.filter((r) => onDay(r.received_at)).length);
      expect(p.positive_responses).toBe(e.positive.filter((r) => onDay(r.received_at)).length);
      expect(p.booked).toBe(e.meetings.filter((m) => onDay(m.booked_at)).length);
    }
    const sum = (k: string) => points.reduce((n, p) => n + p[k], 0);
    expect(sum('responses')).toBe(e.replies.length);
    expect(sum('responses')).toBeGreaterThan(0);
  });
  it('summed over a window, the series equals the summary funnel and the campaign insights', async () => {
    const points = await readAll(api, `${ACME}/insights/daily`, { query: q });
    const s = await summary(q);
    const campaigns = await readAll(api, `${ACME}/insights/campaigns`, { query: q });
    const sum = (k: string) => points.reduce((n, p) => n + p[k], 0);
    expect(sum('responses')).toBe(s.funnel.all_responses);
    expect(sum('positive_responses')).toBe(s.funnel.positive_responses);
    expect(sum('booked')).toBe(s.funnel.booked_meetings);
    expect(sum('emails_sent')).toBe(campaigns.reduce((n, c) => n + c.emails_sent, 0));
    expect(sum('emails_sent')).toBeGreaterThan(0);
  });
});

describe('Insight windows: daily accepts at most 120 days (days only); over the cap is 400 invalid_request', () => {
  it('120 days pass, 121 are refused naming from', async () => {
    const ok = await readAll(api, `${ACME}/insights/daily`, { query: { from: '2026-07-24', to: '2026-11-20' } });
    expect(ok.length).toBe(120);
    const r = await api.get(`${ACME}/insights/daily`, { query: { from: '2026-07-23', to: '2026-11-20' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
  it('a date-time bound is 400 invalid_request naming it; from after to is refused', async () => {
    const a = await api.get(`${ACME}/insights/daily`, { query: { to: '2026-11-20T00:00:00Z' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'invalid_request', param: 'to' });
    const b = await api.get(`${ACME}/insights/daily`, { query: { from: '2026-11-20', to: '2026-11-19' } });
    expect(b.status).toBe(400);
    expect(b.body.error).toMatchObject({ code: 'invalid_request', param: 'from' });
  });
});

describe('daily: metric is one of emails_sent, responses, positive_responses, booked; each point then carries it as value (our choice)', () => {
  it.each([['emails_sent'], ['responses'], ['positive_responses'], ['booked']])('metric=%s', async (metric) => {
    const q = { from: '2026-10-01', to: '2026-11-20' };
    const plain = await readAll(api, `${ACME}/insights/daily`, { query: q });
    const withMetric = await readAll(api, `${ACME}/insights/daily`, { query: { ...q, metric } });
    expect(withMetric.length).toBe(plain.length);
    withMetric.forEach((p, i) => {
      expect(p).toEqual({ ...plain[i], metric, value: plain[i][metric] });
    });
  });
  it('an unknown metric is 400 unsupported_filter naming metric', async () => {
    const r = await api.get(`${ACME}/insights/daily`, { query: { metric: 'opens' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'metric' });
  });
});
