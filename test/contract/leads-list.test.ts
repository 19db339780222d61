import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { type RequestOptions, type TestApi, readAll, startTestApi } from '../../scripts/harness/sandbox.js';

const LEADS = '/v1/workspaces/acme/leads';
let api: TestApi;
/** Every acme lead as Ada sees it, newest first, with tags expanded. */
let all: any[];
beforeAll(async () => {
  api = await startTestApi({ rateLimits: false });
  all = await readAll(api, LEADS, { query: { expand: 'tags' } });
});
afterAll(() => api.close());

const ids = (rows: any[]) => rows.map((l) => l.id);
async function filtered(query: Record<string, string | number | boolean>, opts: RequestOptions = {}) {
  return ids(await readAll(api, LEADS, { ...opts, query }));
}
async function expectError(query: Record<string, string | number | boolean>, status: number, code: string, param: string) {
  const r = await api.get(LEADS, { query });
  expect(r.status).toBe(status);
  expect(r.body.error).toMatchObject({ code, param });
}

describe('Pagination: leads by (last_message_at, reply id); ties at page edges are neither dropped nor repeated', () => {
  it('walking pages of 50 gives every lead exactly once, in the order of one big read', async () => {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: any = (await api.get(LEADS, { query: cursor ? { limit: 50, cursor } : { limit: 50 } })).body;
      seen.push(...r.data);
      cursor = r.next_cursor;
      pages++;
      if (pages === 1) expect(r.data[49].last_message_at).toBe(all[50].last_message_at);
    } while (cursor);
    expect(ids(seen)).toEqual(ids(all));
    expect(pages).toBe(Math.ceil(all.length / 50));
  });
  it('order=asc is the exact reverse of the default desc', async () => {
    expect(await filtered({ order: 'asc' })).toEqual(ids(all).reverse());
  });
  it('the default page is 50 and newest first', async () => {
    const r = (await api.get(LEADS)).body;
    expect(r.data).toHaveLength(50);
    expect(r.has_more).toBe(true);
    expect(ids(r.data)).toEqual(ids(all.slice(0, 50)));
  });
});

describe('Pagination: an invalid cursor gives 400 invalid_cursor', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = (await api.get(LEADS, { query: { limit: 5 } })).body.next_cursor;
  });
  it('an edited cursor', async () => expectError({ cursor: `${cursor.slice(0, -3)}abc` }, 400, 'invalid_cursor', 'cursor'));
  it('a desc cursor used with order=asc', async () => expectError({ cursor, order: 'asc' }, 400, 'invalid_cursor', 'cursor'));
  it("another workspace's cursor", async () => {
    const r = await api.get('/v1/workspaces/globex/leads', { query: { cursor } });
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
  it("a replies list's cursor", async () => {
    const lead = all.find((l) => l.email === SPECIAL_EMAILS.manyThreads);
    const rc = (await api.get(`${LEADS}/${lead.id}/replies`, { query: { limit: 1 } })).body.next_cursor;
    await expectError({ cursor: rc }, 400, 'invalid_cursor', 'cursor');
  });
});

describe('Pagination: all filters are applied before paging, so a filtered page is never partial', () => {
  it('pages of 7 interested leads are full until the last', async () => {
    const want = ids(all.filter((l) => l.status === 'interested'));
    const got: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = (await api.get(LEADS, { query: cursor ? { status: 'interested', limit: 7, cursor } : { status: 'interested', limit: 7 } })).body;
      if (r.has_more) expect(r.data).toHaveLength(7);
      got.push(...ids(r.data));
      cursor = r.next_cursor;
    } while (cursor);
    expect(got).toEqual(want);
  });
});

describe('Lead list filter: status is a comma-separated list, with booked and disqualified as lifecycle values', () => {
  it('one status, several statuses', async () => {
    expect(await filtered({ status: 'automated' })).toEqual(ids(all.filter((l) => l.status === 'automated')));
    expect(await filtered({ status: 'not_interested,unsubscribed' })).toEqual(ids(all.filter((l) => ['not_interested', 'unsubscribed'].includes(l.status))));
  });
  it('booked and disqualified match the lead state', async () => {
    expect(await filtered({ status: 'booked' })).toEqual(ids(all.filter((l) => l.state === 'booked')));
    expect(await filtered({ status: 'disqualified,untagged' })).toEqual(ids(all.filter((l) => l.state === 'disqualified' || l.status === 'untagged')));
  });
  it('an unknown value, or the write alias dnc, is 400 unsupported_filter', async () => {
    await expectError({ status: 'legacy_hold' }, 400, 'unsupported_filter', 'status');
    await expectError({ status: 'dnc' }, 400, 'unsupported_filter', 'status');
  });
});

describe('Lead list filter: campaign_id is one cmp_ id', () => {
  it('matches the lead row campaign (recent rows with a null campaign are missed)', async () => {
    const c = all.find((l) => l.campaign_id !== null).campaign_id;
    const got = await filtered({ campaign_id: c });
    expect(got).toEqual(ids(all.filter((l) => l.campaign_id === c)));
    expect(got.length).toBeGreaterThan(0);
  });
  it("a campaign that is not this workspace's is 404 not_found", async () => {
    await expectError({ campaign_id: 'cmp_nosuchcampaign' }, 404, 'not_found', 'campaign_id');
    const globex = (await api.get('/v1/workspaces/globex/leads', { query: { limit: 50 } })).body.data.find((l: any) => l.campaign_id);
    await expectError({ campaign_id: globex.campaign_id }, 404, 'not_found', 'campaign_id');
  });
});

describe('Lead list filter: assignee_id is comma-separated workspace-scoped usr_ ids, or the literal none', () => {
  it('one member, two members, none, and none with a member', async () => {
    const [m1, m2] = [...new Set(all.flatMap((l) => l.assignee_ids))] as string[];
    const has = (l: any, m: string) => l.assignee_ids.includes(m);
    expect(await filtered({ assignee_id: m1! })).toEqual(ids(all.filter((l) => has(l, m1!))));
    expect(await filtered({ assignee_id: `${m1},${m2}` })).toEqual(ids(all.filter((l) => has(l, m1!) || has(l, m2!))));
    const none = await filtered({ assignee_id: 'none' });
    expect(none).toEqual(ids(all.filter((l) => l.assignee_ids.length === 0)));
    expect(none.length).toBeGreaterThan(0);
    expect(await filtered({ assignee_id: `none,${m1}` })).toEqual(ids(all.filter((l) => l.assignee_ids.length === 0 || has(l, m1!))));
  });
  it('a one-part user id is 400 invalid_id; a member of no workspace here is 404', async () => {
    await expectError({ assignee_id: 'usr_ben' }, 400, 'invalid_id', 'assignee_id');
    await expectError({ assignee_id: 'usr_hal_globex' }, 404, 'not_found', 'assignee_id');
  });
});

describe('Lead list filter: lead_tag_id is up to 100 ltg_ ids and matches leads having any', () => {
  it('any-match over two tags', async () => {
    const tags = [...new Set(all.flatMap((l) => l.tags.map((t: any) => t.id)))].slice(0, 2) as string[];
    const want = ids(all.filter((l) => l.tags.some((t: any) => tags.includes(t.id))));
    expect(await filtered({ lead_tag_id: tags.join(',') })).toEqual(want);
    const onlyOne = (id: string) => all.some((l) => want.includes(l.id) && !l.tags.some((t: any) => t.id === id));
    expect(onlyOne(tags[0]!) && onlyOne(tags[1]!)).toBe(true);
  });
  it('101 ids is 400 invalid_request; a tag of another workspace is 404', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `ltg_x${i}_acme`).join(',');
    await expectError({ lead_tag_id: many }, 400, 'invalid_request', 'lead_tag_id');
    const globexTag = (await api.get('/v1/workspaces/globex/lead_tags')).body.data[0].id;
    await expectError({ lead_tag_id: globexTag }, 404, 'not_found', 'lead_tag_id');
  });
});

describe('Lead list filter: email is an exact address, case-insensitive', () => {
  it('matches whatever the case; a prefix is not a match', async () => {
    const lead = all.find((l) => l.email === SPECIAL_EMAILS.injection);
    expect(await filtered({ email: SPECIAL_EMAILS.injection.toUpperCase() })).toEqual([lead.id]);
    expect(await filtered({ email: SPECIAL_EMAILS.injection.slice(0, -2) })).toEqual([]);
  });
});

describe('Lead list filter: q is 1..160 characters, a prefix search over name, email, company, title and subject; punctuation splits tokens; not message bodies', () => {
  const toks = (s: string | null) =>
    (s ?? '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const matches = (l: any, q: string) => {
    const have = [l.first_name, l.last_name, l.email, l.company_name, l.title, l.subject].flatMap(toks);
    return toks(q).every((t) => have.some((h) => h.startsWith(t)));
  };
  it.each([['mall'], ['Chen'], ['northwind tra'], ["o'brien"], ['vp sal'], ['cfo'], ['evil-corp.example']])('q=%s', async (q) => {
    const want = ids(all.filter((l) => matches(l, q)));
    expect(want.length).toBeGreaterThan(0);
    expect(await filtered({ q })).toEqual(want);
  });
  it('a subject token finds its lead; a word only in a message body finds nothing', async () => {
    const quinn = all.find((l) => l.email === SPECIAL_EMAILS.search);
    expect(await filtered({ q: 'zephyr' })).toEqual([quinn.id]);
    expect(quinn.body_preview.toLowerCase()).toContain('kilimanjaro');
    expect(await filtered({ q: 'kilimanjaro' })).toEqual([]);
  });
  it('a q of punctuation only has no tokens and matches nothing', async () => {
    expect(await filtered({ q: "@.-'" })).toEqual([]);
  });
  it('an empty q or one over 160 characters is 400 invalid_request', async () => {
    await expectError({ q: '' }, 400, 'invalid_request', 'q');
    await expectError({ q: 'a'.repeat(161) }, 400, 'invalid_request', 'q');
    expect((await api.get(LEADS, { query: { q: 'a'.repeat(160) } })).status).toBe(200);
  });
});

describe('Lead list filter: has_open_task and task_due_before are evaluated for the key owner', () => {
  let mine: string;
  let bens: string;
  beforeAll(async () => {
    mine = all[3].id;
    bens = all[4].id;
    for (const [key, lead, due] of [
      ['admin', mine, '2026-11-25'],
      ['admin', mine, '2026-11-22'],
      ['rep', bens, '2026-11-21'],
    ] as const) {
      const r = await api.call('POST', '/v1/workspaces/acme/tasks', { key, body: { lead_id: lead, due_date: due } });
      expect(r.status).toBe(201);
    }
  });
  it('has_open_task true/false split the leads by the owner-relative field, for each key', async () => {
    for (const key of ['admin', 'rep'] as const) {
      const rows = await readAll(api, LEADS, { key });
      const t = await filtered({ has_open_task: true }, { key });
      expect(t).toEqual(ids(rows.filter((l) => l.has_open_task)));
      expect(await filtered({ has_open_task: false }, { key })).toEqual(ids(rows.filter((l) => !l.has_open_task)));
    }
    expect(await filtered({ has_open_task: true })).toContain(mine);
    expect(await filtered({ has_open_task: true }, { key: 'rep' })).toContain(bens);
    const adaView = (await api.get(`${LEADS}/${mine}`)).body;
    expect(adaView).toMatchObject({ has_open_task: true, next_due_at: '2026-11-22' });
  });
  it("task_due_before is strictly before, on the owner's open tasks", async () => {
    const rows = await readAll(api, LEADS);
    for (const day of ['2026-11-22', '2026-11-23']) {
      expect(await filtered({ task_due_before: day })).toEqual(ids(rows.filter((l) => l.next_due_at !== null && l.next_due_at < day)));
    }
    expect(await filtered({ task_due_before: '2026-11-22' })).not.toContain(mine);
    expect(await filtered({ task_due_before: '2026-11-23' })).toContain(mine);
    expect(await filtered({ task_due_before: '2026-11-23' })).not.toContain(bens);
  });
  it('a deleted or completed task does not count', async () => {
    const lead = all[5].id;
    const before = (await api.get(`${LEADS}/${lead}`)).body.has_open_task;
    const t = (await api.call('POST', '/v1/workspaces/acme/tasks', { body: { lead_id: lead } })).body;
    expect((await api.get(`${LEADS}/${lead}`)).body.has_open_task).toBe(true);
    await api.call('DELETE', `/v1/workspaces/acme/tasks/${t.id}`);
    expect((await api.get(`${LEADS}/${lead}`)).body.has_open_task).toBe(before);
  });
});

describe('Lead list filter: meeting_outcome is a comma-separated list of outcomes or none', () => {
  it('outcomes and none', async () => {
    expect(await filtered({ meeting_outcome: 'showed,no_show' })).toEqual(ids(all.filter((l) => ['showed', 'no_show'].includes(l.meeting_outcome))));
    expect(await filtered({ meeting_outcome: 'none' })).toEqual(ids(all.filter((l) => l.meeting_outcome === null)));
  });
  it('an unknown outcome is 400 unsupported_filter', () => expectError({ meeting_outcome: 'maybe' }, 400, 'unsupported_filter', 'meeting_outcome'));
});

describe("Lead list filter: direction is sent or received (the last message's direction)", () => {
  it.each([['sent'], ['received']])('direction=%s', async (d) => {
    const want = ids(all.filter((l) => l.last_message_direction === d));
    expect(want.length).toBeGreaterThan(0);
    expect(await filtered({ direction: d })).toEqual(want);
  });
});

describe('Lead list filter: updated_since / updated_before compare last_message_at strictly', () => {
  it('a tie timestamp is excluded from both sides', async () => {
    const t = all[49].last_message_at;
    const ms = Date.parse(t);
    expect(await filtered({ updated_since: t })).toEqual(ids(all.filter((l) => Date.parse(l.last_message_at) > ms)));
    expect(await filtered({ updated_before: t })).toEqual(ids(all.filter((l) => Date.parse(l.last_message_at) < ms)));
  });
  it('a window, written with an offset, combined with a cursor', async () => {
    const from = Date.parse(all[300].last_message_at);
    const to = Date.parse(all[20].last_message_at);
    const offset = (ms: number) => new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const want = ids(all.filter((l) => Date.parse(l.last_message_at) > from && Date.parse(l.last_message_at) < to));
    const got: string[] = [];
    let cursor: string | null = null;
    do {
      const q: Record<string, string | number> = { updated_since: offset(from), updated_before: offset(to), limit: 60 };
      if (cursor) q.cursor = cursor;
      const r: any = (await api.get(LEADS, { query: q })).body;
      got.push(...ids(r.data));
      cursor = r.next_cursor;
    } while (cursor);
    expect(got).toEqual(want);
  });
  it('a value that is not a date-time is 400 invalid_request', () => expectError({ updated_since: 'yesterday' }, 400, 'invalid_request', 'updated_since'));
});

describe('Lead list filter: unread, responded, priority (unread and priority for the key owner)', () => {
  it.each([['unread'], ['responded'], ['priority']])('%s=true and false, for Ada and for Ben', async (f) => {
    for (const key of ['admin', 'rep'] as const) {
      const rows = await readAll(api, LEADS, { key });
      for (const v of [true, false]) expect(await filtered({ [f]: v }, { key })).toEqual(ids(rows.filter((l) => l[f] === v)));
    }
  });
  it('filters combine with AND', async () => {
    const want = ids(all.filter((l) => l.unread && l.status === 'interested' && l.last_message_direction === 'received'));
    expect(await filtered({ unread: true, status: 'interested', direction: 'received' })).toEqual(want);
  });
  it('a value other than true/false is 400 invalid_request', () => expectError({ unread: 'yes' }, 400, 'invalid_request', 'unread'));
});

describe('Lead list: expand is a comma list of assignees, campaign, open_tasks, tags, at most 3 per request', () => {
  it('four expansions, or one not offered on lists, is 400 invalid_request', async () => {
    await expectError({ expand: 'assignees,campaign,open_tasks,tags' }, 400, 'invalid_request', 'expand');
    await expectError({ expand: 'notes' }, 400, 'invalid_request', 'expand');
    await expectError({ expand: 'messages' }, 400, 'invalid_request', 'expand');
  });
  it('expansions appear only when requested, with the shapes of their resources', async () => {
    const plain = (await api.get(LEADS, { query: { limit: 3 } })).body.data[0];
    for (const k of ['assignees', 'campaign', 'open_tasks', 'tags']) expect(plain).not.toHaveProperty(k);
    const rows = await readAll(api, LEADS, { query: { expand: 'campaign,open_tasks,assignees' } });
    for (const l of rows) {
      if (l.campaign_id === null) expect(l.campaign).toBeNull();
      else expect(l.campaign).toMatchObject({ object: 'campaign', id: l.campaign_id, name: l.campaign_name, workspace: 'acme' });
      expect(l.assignees.map((a: any) => a.id)).toEqual(l.assignee_ids);
      for (const t of l.open_tasks) expect(t).toMatchObject({ object: 'task', lead_id: l.id, status: 'open' });
    }
    expect(rows.some((l) => l.open_tasks.length > 0)).toBe(true);
  });
});
