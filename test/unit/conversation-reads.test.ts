import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ReplyInboxClient, type RowCallOptions } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { MANY_LEADS_MESSAGES } from '../../src/mcp/reads/conversations.js';
import { SIBLING_CAP, SIBLING_CAP_LINE } from '../../src/mcp/reads/conversation.js';
import { SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';

type Started = Awaited<ReturnType<typeof inProcessServer>>;
let sb: Sandbox;
let s: Started;
let small: Started;
beforeAll(async () => {
  // More thread reads than a minute's 30: the continuations are followed to the end.
  sb = await sandbox({ leads: 20, bucketLimits: { thread: 1_000, read: 1_000 } });
  [s, small] = await Promise.all([inProcessServer(sb), inProcessServer(sb, { maxResultBytes: 4_096 })]);
});
afterAll(async () => {
  await Promise.all([s?.close(), small?.close()]);
  await sb?.close();
});

const bytes = (t: string) => Buffer.byteLength(t, 'utf8');
async function call(on: Started, args: Record<string, unknown>) {
  const r = (await on.client.callTool({ name: 'get_conversation', arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) throw new Error(text);
  return { text, structured: r.structuredContent as any };
}
const longLead = () => [...sb.store.leads.all()].find((l) => l.email === 'lena.long@chatty.example')!.id;
/** The ids of the newest 200 messages as the API returns them, newest first. */
const apiIds = async (lead: string) => {
  const r = await fetch(`${sb.baseUrl}/v1/workspaces/acme/leads/${lead}/messages?limit=200&order=desc`, {
    headers: { authorization: `Bearer ${sb.keys.admin}` },
  });
  return ((await r.json()) as { data: { id: string }[] }).data.map((m) => m.id);
};

/** Follow each answer's continuation (the older messages, or what the budget left out) to the end. */
async function followAll(on: Started, first: Record<string, unknown>) {
  const seen: string[] = [];
  const calls: Record<string, unknown>[] = [];
  let args: Record<string, unknown> | undefined = first;
  while (args) {
    calls.push(args);
    expect(calls.length).toBeLessThan(250);
    const r = await call(on, args);
    seen.push(...(r.structured.messages as { id: string }[]).map((m) => m.id));
    const next = r.structured.left_out?.fetch_rest ?? r.structured.older?.fetch_rest;
    if (next) expect(r.text).toContain(JSON.stringify(next));
    args = next;
  }
  return { seen, calls };
}

describe('get_conversation reads the newest few by default and says how to read more', () => {
  it('the 200-message thread by default: 10 messages, at most 4,000 bytes in each form, the true counts, the call that reads on', async () => {
    const lead = longLead();
    const r = await call(s, { lead_id: lead });
    expect(r.structured.messages).toHaveLength(10);
    expect(bytes(r.text)).toBeLessThanOrEqual(4_000);
    expect(bytes(JSON.stringify(r.structured))).toBeLessThanOrEqual(4_000);
    expect(r.structured.counts).toEqual({ shown: 10, returned_by_api: 200, longer_than_api_serves: true, older_not_shown: 190 });
    expect(r.structured.older).toEqual({ count: 190, fetch_rest: { lead_id: lead, offset: 10, limit: 190 } });
    expect(r.text).toContain('the newest 10 of the 200 messages the API returned, oldest first');
    // The call given asks for all 190 left, whatever this call's limit: the result budget cuts it to what one result holds.
    expect(r.text).toContain(
      `190 older messages not shown: to read them, as many per call as the result budget holds, call get_conversation with {"lead_id":"${lead}","offset":10,"limit":190}.`,
    );
    expect(r.text).toContain('longer than the 200 newest messages the API serves');
    // Oldest first: the last shown is the newest the API returned.
    const ids = await apiIds(lead);
    expect((r.structured.messages as { id: string }[]).map((m) => m.id)).toEqual(ids.slice(0, 10).reverse());
  });

  it('a short thread read whole says so: no continuation, not longer than the API serves', async () => {
    const lead = [...sb.store.leads.inGroup('acme')].find((l) => l.email === 'mallory@evil-corp.example')!.id;
    const r = await call(s, { lead_id: lead, limit: 200 });
    // A zero and a false say nothing: both forms leave them out.
    expect(r.structured.counts).toEqual({ shown: r.structured.messages.length, returned_by_api: r.structured.messages.length });
    expect(r.structured.older).toBeUndefined();
    expect(r.text).not.toContain('not shown');
  });
});

describe('a conversation continuation never repeats itself', () => {
  for (const order of ['asc', 'desc'] as const) {
    it(`limit 200, order ${order}, whole bodies, a 4,096-byte budget: each continuation starts at the first message left out, keeps every other argument, asks for all that are left, and reaches all 200`, async () => {
      const lead = longLead();
      const first = { lead_id: lead, limit: 200, order, max_body_chars: 100_000 };
      const { seen, calls } = await followAll(small, first);
      expect(calls.length).toBeGreaterThan(2);
      for (const c of calls.slice(1)) expect(c).toMatchObject({ lead_id: lead, limit: 200 - Number(c.offset), order, max_body_chars: 100_000 });
      expect(new Set(seen).size).toBe(seen.length);
      expect(new Set(seen)).toEqual(new Set(await apiIds(lead)));
    });
  }
  // Issue 30, item 5: the continuation read 10 a call (20 calls), or 2 a call after limit:2 (99 calls).
  it.each([[{}], [{ limit: 2 }], [{ limit: 1, order: 'desc' }]])(
    'the 200-message thread from a first read with %j: followed to the end in at most 4 calls, as many per call as the budget holds',
    async (first) => {
      const lead = longLead();
      const { seen, calls } = await followAll(s, { lead_id: lead, ...first });
      expect(calls.length).toBeLessThanOrEqual(4);
      expect(seen).toHaveLength(200);
      expect(new Set(seen)).toEqual(new Set(await apiIds(lead)));
    },
  );
  it("a cut by the server's budget is not blamed on the API", async () => {
    const r = await call(small, { lead_id: longLead(), limit: 200, max_body_chars: 100_000 });
    expect(r.structured.left_out.count).toBeGreaterThan(0);
    expect(r.text).not.toMatch(/API gives no way/);
    expect(r.structured.counts.shown).toBe(r.structured.messages.length);
    expect(r.structured.older.fetch_rest).toEqual(r.structured.left_out.fetch_rest);
  });
});

describe('spec (Limits): a conversation is assembled from at most 12 sibling threads', () => {
  it('a lead past the cap: the answer says what is in the view, what is not, and where the rest is read', async () => {
    const lead = [...sb.store.leads.all()].find((l) => l.email === SPECIAL_EMAILS.manyThreads)!.id;
    const r = await call(s, { lead_id: lead });
    expect(r.structured.meta).toMatchObject({ sibling_cap_reached: true });
    expect(r.text).toContain(SIBLING_CAP_LINE);
    for (const said of [
      `only messages of ${SIBLING_CAP} of its threads are in this view`,
      'those of the others are not',
      'no argument of get_conversation reads them',
      'list_replies lists every reply',
    ]) {
      expect(SIBLING_CAP_LINE).toContain(said);
    }
    // Several leads in one call say it too, shorter, with the same pointer.
    const many = await call(s, { lead_ids: [lead] });
    expect(many.text).toContain(`only ${SIBLING_CAP} of its email threads assembled (list_replies lists the replies of all)`);
  });
});

describe('get_conversation with lead_ids reads several threads in one call', () => {
  it('10 leads, one unknown: the newest 2 of each, one thread request per lead, the failure listed beside the others, within the budget', async () => {
    const leads = sb.store.leads
      .inGroup('acme')
      .slice(0, 9)
      .map((l) => l.id);
    const unknown = 'lead_doesnotexist00';
    const sent: string[] = [];
    const api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
    const counting = Object.assign(Object.create(api), {
      call: (name: EndpointName, req: RowCallOptions) => {
        sent.push(name);
        return api.request(endpoint(name), req);
      },
    });
    const own = await inProcessServer(sb, { api: counting });
    try {
      const r = (await own.client.callTool({
        name: 'get_conversation',
        arguments: { lead_ids: [...leads.slice(0, 4), unknown, ...leads.slice(4)] },
      })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      const text = (r.content[0] as { text: string }).text;
      const sc = r.structuredContent as { failed: number; conversations: { lead_id: string; messages?: unknown[]; error?: { code: string } }[] };
      expect(sc.conversations.map((c) => c.lead_id)).toEqual([...leads.slice(0, 4), unknown, ...leads.slice(4)]);
      expect(sc.failed).toBe(1);
      expect(sc.conversations[4]!.error!.code).toBe('not_found');
      for (const c of sc.conversations.filter((x) => !x.error)) expect(c.messages!.length).toBeGreaterThan(0);
      for (const c of sc.conversations.filter((x) => !x.error)) expect(c.messages!.length).toBeLessThanOrEqual(MANY_LEADS_MESSAGES);
      expect(sent.filter((n) => n === 'get_conversation')).toHaveLength(10);
      expect(bytes(text)).toBeLessThanOrEqual(24_576);
      expect(bytes(JSON.stringify(r.structuredContent))).toBeLessThanOrEqual(24_576);
      expect(text).toContain(`## Lead ${unknown}\nFailed: {"code":"not_found"`);
    } finally {
      await own.close();
    }
  });
  it('a message left without its sender in structuredContent is one the server instructions explain', async () => {
    const leads = sb.store.leads
      .inGroup('acme')
      .slice(0, 10)
      .map((l) => l.id);
    const { structured } = await call(s, { lead_ids: leads });
    type M = { from_name?: string; from_email?: string };
    const bare = (structured.conversations as { messages?: M[] }[]).flatMap((c) => (c.messages ?? []).slice(1)).filter((m) => !m.from_email);
    expect(bare.length).toBeGreaterThan(0);
    expect(s.client.getInstructions()).toContain(
      'in get_conversation with lead_ids, a message without from_name and from_email is from the sender of the message before',
    );
  });
  it('lead_id and lead_ids together, or neither, is refused naming them', async () => {
    const lead = longLead();
    for (const args of [{ lead_id: lead, lead_ids: [lead] }, {}]) {
      const r = (await s.client.callTool({ name: 'get_conversation', arguments: args })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect((r.content[0] as { text: string }).text).toContain('Pass lead_id (one lead) or lead_ids (several)');
    }
  });
  it('a budget cut continues with the leads left out, every other argument kept', async () => {
    const leads = sb.store.leads
      .inGroup('acme')
      .slice(0, 10)
      .map((l) => l.id);
    const r = (await small.client.callTool({ name: 'get_conversation', arguments: { lead_ids: leads, limit: 3, max_body_chars: 100_000 } })) as CallToolResult;
    const sc = r.structuredContent as { conversations: unknown[]; left_out: { fetch_rest: Record<string, unknown> } };
    expect(sc.conversations.length).toBeLessThan(10);
    expect(sc.left_out.fetch_rest).toEqual({ lead_ids: leads.slice(sc.conversations.length), limit: 3, max_body_chars: 100_000 });
  });
});
