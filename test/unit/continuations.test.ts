import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient, type RowCallOptions } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

// Item 1 of the second agent trial: every continuation (a cut notice's fetch_rest, a page's
// next_cursor, a conversation's older.fetch_rest) leads to items not yet shown, carries every
// argument of the call it continues, and followed to the end reads the whole list once.

type Started = Awaited<ReturnType<typeof inProcessServer>>;
type Args = Record<string, unknown>;
type Row = Record<string, unknown>;

/** Every multi-item read, from the registry: a tool whose endpoint answers a list. */
const MULTI = ALL_TOOLS.filter((t) => t.endpoint.returns === 'list' && !t.endpoint.write);
/** A budget small enough that every list longer than a few rows is cut. */
const SMALL = 2_500;

let sb: Sandbox;
let api: ReplyInboxClient;
let wide: Started;
let small: Started;
beforeAll(async () => {
  sb = await sandbox({ leads: 60, bucketLimits: { read: 100_000, thread: 100_000, upstream: 100_000 } });
  api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  [wide, small] = await Promise.all([inProcessServer(sb), inProcessServer(sb, { maxResultBytes: SMALL })]);
});
afterAll(async () => {
  await Promise.all([wide?.close(), small?.close()]);
  await sb?.close();
});

/** An item's identity: its id, or what names it in its list (a campaign's insight, a day's point). */
const keyOf = (r: Row) => String(r.id ?? r.campaign_id ?? r.date ?? JSON.stringify(r));
const itemsOf = (sc: Row) => ((sc.data ?? sc.messages ?? []) as Row[]).map(keyOf);

/** What the API holds, read directly: every page, in the order asked. */
async function truth(name: string, path: Record<string, string>, order: string | undefined): Promise<string[]> {
  const e = MULTI.find((t) => t.name === name)!.endpoint;
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const query: Args = { ...(order ? { order } : {}), ...('limit' in e.query ? { limit: 200 } : {}), ...(cursor ? { cursor } : {}) };
    const r = (await api.request(e, { path, query })).data as { data: Row[]; has_more?: boolean; next_cursor?: string | null };
    out.push(...r.data.map(keyOf));
    cursor = 'cursor' in e.query && r.has_more && r.next_cursor ? r.next_cursor : undefined;
  } while (cursor);
  return out;
}

/** The lead whose list under this tool is longest: a read that has something to continue. */
async function richestLead(name: string): Promise<string> {
  let best = { id: '', n: -1 };
  for (const l of sb.store.leads.inGroup('acme').slice(0, 40)) {
    const n = (await truth(name, { workspace: 'acme', lead_id: l.id }, undefined)).length;
    if (n > best.n) best = { id: l.id, n };
  }
  return best.id;
}

/** The call that reads on from this answer, or undefined at the end; checks the answer says it. */
function nextCall(prev: Args, r: { text: string; sc: Row }): Args | undefined {
  const left = r.sc.left_out as { fetch_rest?: Args; count: number } | undefined;
  if (left) {
    expect(left.fetch_rest, `a cut with no way on: ${r.text.slice(-400)}`).toBeDefined();
    expect(r.text).toContain(JSON.stringify(left.fetch_rest));
    return left.fetch_rest;
  }
  const older = (r.sc.older as { fetch_rest?: Args } | undefined)?.fetch_rest;
  if (older) return older;
  if (r.sc.has_more === true) {
    expect(typeof r.sc.next_cursor).toBe('string');
    expect(r.text).toContain(String(r.sc.next_cursor));
    return { ...prev, cursor: r.sc.next_cursor };
  }
  return undefined;
}

/**
 * Each argument of the call continued is carried on: the same value, or moved past what was shown.
 * A conversation read on by offset asks for every message left of those the API returned, whatever its limit was.
 */
function carries(prev: Args, next: Args, shown: number, sc: Row) {
  const returned = (sc.counts as { returned_by_api?: number } | undefined)?.returned_by_api;
  const byOffset = 'offset' in next && returned !== undefined;
  for (const [k, v] of Object.entries(prev)) {
    if (k === 'cursor' || (k === 'limit' && byOffset)) continue;
    if (k === 'max_items') expect(next[k], 'max_items counts down what is left of the bound').toBe((v as number) - shown);
    // A conversation read on from an offset asks for all that is left of its limit, whatever the first page's size.
    else if (k === 'limit' && 'offset' in next) expect(next[k], 'limit counts down what is left').toBe((v as number) - shown);
    else if (k === 'offset') expect(next[k]).toBe((v as number) + shown);
    else expect(next[k], `argument ${k}`).toEqual(v);
  }
  if (!('offset' in prev) && 'offset' in next) expect(next.offset).toBe(shown);
  if (byOffset) expect(next.limit, 'limit: every message left').toBe(returned - (next.offset as number));
}

/** The true counts an answer states: what was shown, and a cut's "X of Y left out". */
function countsTrue(r: { text: string; sc: Row }, shown: number) {
  const cut = /\[(\d+) of (\d+) (?:items|messages) left out/.exec(r.text);
  if (cut) {
    expect(Number(cut[2]) - Number(cut[1])).toBe(shown);
    expect((r.sc.left_out as { count: number }).count).toBe(Number(cut[1]));
  }
  const read = /Read (\d+) items? over \d+ pages?/.exec(r.text);
  if (read) expect(Number(read[1])).toBe(shown);
  const counts = r.sc.counts as { shown?: number } | undefined;
  if (counts?.shown !== undefined) expect(counts.shown).toBe(shown);
}

/** Follow a read's continuations to the end: everything it read, in the order read, and the calls. */
async function followAll(on: Started, name: string, first: Args) {
  const seen: string[] = [];
  const calls: Args[] = [];
  /** How many items each answer showed, and whether the budget cut it. */
  const counts: number[] = [];
  const cuts: boolean[] = [];
  let args: Args | undefined = first;
  while (args) {
    calls.push(args);
    expect(calls.length, `${name} keeps continuing`).toBeLessThan(300);
    const r = (await on.client.callTool({ name, arguments: args })) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    expect(r.isError, text).toBeFalsy();
    const sc = r.structuredContent as Row;
    const got = itemsOf(sc);
    countsTrue({ text, sc }, got.length);
    seen.push(...got);
    counts.push(got.length);
    cuts.push(sc.left_out !== undefined);
    const next = nextCall(args, { text, sc });
    if (next) {
      expect(got.length, `${name}: a continuation after an answer that showed nothing`).toBeGreaterThan(0);
      carries(args, next, got.length, sc);
    }
    args = next;
  }
  return { seen, calls, counts, cuts };
}

interface Run {
  label: string;
  on: () => Started;
  args: (n: number) => Args;
}

/** The ways a list is read on: pages of a third of it, whole pages cut by a small budget, one multi-page read cut by it. */
function runsFor(t: (typeof MULTI)[number]): Run[] {
  const q = t.endpoint.query;
  const runs: Run[] = [{ label: `budget ${SMALL}`, on: () => small, args: () => ('limit' in q ? { limit: 200 } : {}) }];
  if ('cursor' in q && 'limit' in q) runs.push({ label: 'pages of a third', on: () => wide, args: (n) => ({ limit: Math.max(1, Math.ceil(n / 3)) }) });
  if (t.multiPage) runs.push({ label: `max_items 1000, budget ${SMALL}`, on: () => small, args: () => ({ max_items: 1_000 }) });
  return runs;
}

describe('every multi-item tool: continuations followed to the end read each item once', () => {
  it('the list of multi-item tools comes from the registry', () => {
    expect(MULTI.length).toBeGreaterThan(15);
  });
  for (const t of MULTI) {
    const orders = 'order' in t.endpoint.query ? (['asc', 'desc'] as const) : ([undefined] as const);
    for (const order of orders) {
      for (const run of runsFor(t)) {
        it(`${t.name}${order ? ` order ${order}` : ''}, ${run.label}`, async () => {
          const lead = 'lead_id' in t.endpoint.pathIds ? await richestLead(t.name) : undefined;
          const path = { ...('workspace' in t.endpoint.pathIds ? { workspace: 'acme' } : {}), ...(lead ? { lead_id: lead } : {}) };
          const conversation = t.name === 'get_conversation';
          // A conversation's API order is newest first; its answer shows each slice oldest first.
          const all = await truth(t.name, path, conversation ? 'desc' : order);
          expect(all.length, 'the sandbox holds something to read').toBeGreaterThan(0);
          const first = { ...(lead ? { lead_id: lead } : {}), ...(order ? { order } : {}), ...run.args(all.length) };
          const { seen, calls } = await followAll(run.on(), t.name, first);
          expect(new Set(seen).size, `${t.name}: an item repeated`).toBe(seen.length);
          if (conversation) expect(new Set(seen)).toEqual(new Set(all));
          else expect(seen).toEqual(all);
          if (run.label === 'pages of a third' && all.length > 1) expect(calls.length).toBeGreaterThan(1);
        });
      }
    }
  }
});

/** A resource's text. */
async function readText(on: Started, uri: string): Promise<string> {
  return ((await on.client.readResource({ uri })).contents[0] as { text: string }).text;
}

describe('every resource that reads on: its continuation followed to the end reads each item once', () => {
  // Neither resource takes an order: the leads resource is the API's order, a conversation the newest messages.
  for (const [label, on] of [
    [`budget ${SMALL}`, () => small],
    ['the default budget', () => wide],
  ] as const) {
    it(`inbox://acme/leads, ${label}: the leads shown, then older's list_leads call followed to the end, are the API's list once, in order`, async () => {
      const all = await truth('list_leads', { workspace: 'acme' }, undefined);
      const view = JSON.parse(await readText(on(), 'inbox://acme/leads')) as {
        leads: Row[];
        left_out?: { count: number };
        older?: { tool: string; arguments: Args };
      };
      const shown = view.leads.map(keyOf);
      expect(shown.length).toBeGreaterThan(0);
      if (label !== 'the default budget') expect(view.left_out?.count, 'the small budget cuts the resource').toBeGreaterThan(0);
      // A cut says how many of the page were left out; the page is the resource's 20 leads.
      if (view.left_out) expect(view.left_out.count + shown.length).toBe(Math.min(20, all.length));
      expect(view.older?.tool).toBe('list_leads');
      const { seen } = await followAll(on(), 'list_leads', view.older!.arguments);
      const union = [...shown, ...seen];
      expect(new Set(union).size, 'a lead repeated').toBe(union.length);
      expect(union).toEqual(all);
    });

    it(`a lead's conversation resource, ${label}: the messages shown, then the call it names followed to the end, are the thread once`, async () => {
      const lead = await richestLead('get_conversation');
      const all = await truth('get_conversation', { workspace: 'acme', lead_id: lead }, 'desc');
      const text = await readText(on(), `inbox://acme/leads/${lead}/conversation`);
      const shown = [...text.matchAll(/^- Message: (\S+)$/gm)].map((m) => m[1]!);
      expect(shown.length).toBeGreaterThan(0);
      // The stated counts are true: what was shown, and a cut's "X of Y left out".
      expect(Number(/: the newest (\d+) of the \d+ messages/.exec(text)?.[1])).toBe(shown.length);
      const cut = /\[(\d+) of (\d+) messages left out/.exec(text);
      if (label !== 'the default budget') expect(cut, 'the small budget cuts the resource').not.toBeNull();
      if (cut) expect(Number(cut[2]) - Number(cut[1])).toBe(shown.length);
      // The line that reads on names the call; the cut's line, when there is one, names the same call.
      const named = [...text.matchAll(/call get_conversation with (\{.*?\})[.\]]/g)].map((m) => m[1]!);
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named).size, 'two different ways on').toBe(1);
      const next = JSON.parse(named[0]!) as Args;
      expect(next).toMatchObject({ workspace: 'acme', lead_id: lead, offset: shown.length });
      const { seen } = await followAll(on(), 'get_conversation', next);
      const union = [...shown, ...seen];
      expect(new Set(union).size, 'a message repeated').toBe(union.length);
      expect(new Set(union)).toEqual(new Set(all));
      // Newest first across reads: each read shows its slice oldest first, the next slice is older.
      expect(shown.toReversed()).toEqual(all.slice(0, shown.length));
    });
  }
});

describe('a multi-page read that was cut resumes at its cursor, never from the start, reading no page more than needed', () => {
  let big: Sandbox;
  let servers: Started[] = [];
  const sent: Args[] = [];
  beforeAll(async () => {
    big = await sandbox({ leads: 500, bucketLimits: { read: 100_000 } });
    const own = new ReplyInboxClient({ apiKey: big.keys.admin, baseUrl: big.baseUrl, logLevel: 'silent' });
    const counting = Object.assign(Object.create(own), {
      call: (name: EndpointName, req: RowCallOptions) => {
        if (name === 'list_leads') sent.push({ ...req.query });
        return own.request(endpoint(name), req);
      },
    });
    // The default budget cuts inside the first page; a wide one cuts past a page boundary.
    servers = await Promise.all([inProcessServer(big, { api: counting }), inProcessServer(big, { api: counting, maxResultBytes: 100_000 })]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await big?.close();
  });
  for (const [i, label] of ['the default budget', 'a budget past a page boundary'].entries()) {
    it(`list_leads {max_items:1000} over 500 leads, ${label}: each continuation starts after the last lead shown, counts down the bound, and reads each page at most twice`, async () => {
      sent.length = 0;
      const first = { max_items: 1_000 };
      const { seen, calls, counts, cuts } = await followAll(servers[i]!, 'list_leads', first);
      expect(calls.length).toBeGreaterThan(1);
      for (const c of calls.slice(1)) expect(typeof c.cursor).toBe('string');
      expect(seen).toHaveLength(500);
      expect(new Set(seen).size).toBe(500);
      // The calls follow from the budget: every answer but the last is full (cut by the budget), none stops short.
      expect(cuts).toEqual(calls.map((_, k) => k < calls.length - 1));
      // A page (where a request starts) is read at most twice: once to show it, once for the cursor where the cut fell.
      const starts = new Map<string, number>();
      for (const q of sent) starts.set(String(q.cursor ?? 'start'), (starts.get(String(q.cursor ?? 'start')) ?? 0) + 1);
      for (const [cursor, n] of starts) expect(n, `requests starting at ${cursor}`).toBeLessThanOrEqual(2);
      // Each call reads the pages up to the first lead it leaves out (pages of 200 from its cursor) and, when cut, one request for the cursor there.
      const needed = counts.reduce((n, shown, k) => n + (cuts[k] ? Math.floor(shown / 200) + 2 : Math.ceil(shown / 200)), 0);
      expect(sent.length).toBeLessThanOrEqual(needed);
    });
  }
});
