import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNTRUSTED_NOTE } from '../../src/mcp/view/fence.js';
import { DEFAULT_BODY_CHARS, DEFAULT_MESSAGES } from '../../src/mcp/reads/conversation.js';
import { readFileSync } from 'node:fs';
import { type Sandbox, SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { INJECTION_TEXT, SPECIAL_EMAILS } from '../../src/sandbox/seed/leads.js';
import { htmlToText } from '../../src/api/text.js';
import { type Relay, type McpSession, type RelayedMcp, callOk, startRelayedMcp } from './helpers.js';
import { withoutFence } from '../../scripts/harness/reliability/scan.js';

/**
 * Resources over stdio: the binary runs against a sandbox of this process behind a
 * counting relay, so every read can be compared with the API's own answer and the
 * requests a listing or a completion costs can be counted.
 */
let sandbox: Sandbox;
let proxy: Relay;
let s: McpSession;

let relayed: RelayedMcp;

beforeAll(async () => {
  relayed = await startRelayedMcp(['--workspace', 'acme', '--log-level', 'warn']);
  ({ sandbox, proxy, s } = relayed);
});
afterAll(() => relayed?.close());

/** The API's own answer, read directly from the sandbox with the same key. */
async function api(path: string, query: Record<string, string | number> = {}): Promise<any> {
  const url = new URL(path, sandbox.baseUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const r = await fetch(url, { headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}` } });
  expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(200);
  return r.json();
}
async function apiAll(path: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api(path, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return out;
}
async function read(uri: string): Promise<{ text: string; mimeType: string | undefined }> {
  const r = await s.client.readResource({ uri });
  expect(r.contents).toHaveLength(1);
  expect(r.contents[0]!.uri).toBe(uri);
  return { text: (r.contents[0] as { text: string }).text, mimeType: r.contents[0]!.mimeType };
}
async function complete(uri: string, name: string, value: string, args?: Record<string, string>): Promise<string[]> {
  const r = await s.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) });
  return r.completion.values;
}
/** Requests the relay saw from `from` on, as "METHOD /path?query". */
const seenSince = (from: number) => proxy.requests.slice(from);

/** The fence tag of a text and the spans of its blocks. */
function fencesOf(text: string): [number, number][] {
  const tag = /<(untrusted-[0-9a-f]{6})[ >]/.exec(text)?.[1];
  expect(tag, 'the text has a fence').toBeDefined();
  return [...text.matchAll(new RegExp(`<${tag}(?: source="[^"]*")?>[\\s\\S]*?</${tag}>`, 'g'))].map((m) => [m.index, m.index + m[0].length]);
}
/** Every occurrence of needle lies inside a fence block; returns how many there were. */
function expectFenced(text: string, needle: string): number {
  const spans = fencesOf(text);
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    n++;
    expect(
      spans.some(([a, b]) => a < i && i + needle.length < b),
      `"${needle.slice(0, 30)}" at ${i} is outside every fence`,
    ).toBe(true);
  }
  return n;
}

const LEAD_TPL = 'inbox://{workspace}/leads/{lead}';
const CONVERSATION_TPL = 'inbox://{workspace}/leads/{lead}/conversation';

describe("Templates: the newest leads, a lead, its conversation, the workspace's playbook, members and lead-tag roster; the capabilities", () => {
  it('resources/templates/list gives the six templates with their types', async () => {
    const { resourceTemplates } = await s.client.listResourceTemplates();
    const byUri = Object.fromEntries(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType]));
    expect(byUri).toEqual({
      'inbox://{workspace}/leads': 'application/json',
      'inbox://{workspace}/leads{?since}': 'application/json',
      [LEAD_TPL]: 'application/json',
      [CONVERSATION_TPL]: 'text/markdown',
      'inbox://{workspace}/playbook': 'text/markdown',
      'inbox://{workspace}/members': 'application/json',
      'inbox://{workspace}/lead-tags': 'application/json',
    });
    for (const t of resourceTemplates) expect(t.description?.length, t.uriTemplate).toBeGreaterThan(30);
  });
});

describe('The newest leads: inbox://{workspace}/leads', () => {
  it('the 20 leads with the newest messages, newest first, what the leads wrote fenced', async () => {
    const newest = (await api('/v1/workspaces/acme/leads', { limit: 20 })).data;
    const { text } = await read('inbox://acme/leads');
    const body = JSON.parse(text);
    expect(body.note).toBe(UNTRUSTED_NOTE);
    expect(body.leads.map((l: any) => l.id)).toEqual(newest.map((l: any) => l.id));
    expect(body.leads[0].last_message_at).toBe(newest[0].last_message_at);
    // An address is the lead's own text, fenced like what the lead wrote (issue 31 finding 10).
    expect(body.leads[0].email).toMatch(/^<untrusted-[0-9a-f]{6}>/);
    expect(withoutFence(body.leads[0].email)).toBe(newest[0].email);
    expect(body.leads[0].first_name).toMatch(/^<untrusted-[0-9a-f]{6}>/);
  });
});

describe('resources/list is useful, not huge: the newest leads of the default workspace (one page), never a crawl of the inbox', () => {
  let resources: Awaited<ReturnType<McpSession['client']['listResources']>>['resources'];
  let requests: string[];
  beforeAll(async () => {
    const from = proxy.requests.length;
    resources = (await s.client.listResources()).resources;
    requests = seenSince(from);
  });

  it('the 20 newest acme leads, newest first, besides the capabilities, playbook, members and lead tags', async () => {
    const newest = (await api('/v1/workspaces/acme/leads', { limit: 20 })).data.map((l: any) => `inbox://acme/leads/${l.id}`);
    const leads = resources.filter((r) => r.uri.includes('/leads/')).map((r) => r.uri);
    expect(leads).toEqual(newest);
    expect(
      resources
        .filter((r) => !r.uri.includes('/leads/'))
        .map((r) => r.uri)
        .sort(),
    ).toEqual(['inbox://acme/lead-tags', 'inbox://acme/leads', 'inbox://acme/members', 'inbox://acme/playbook', 'inbox://capabilities']);
  });

  it('listing costs one page of leads (limit 20, no cursor) and nothing else', () => {
    const leadReads = requests.filter((r) => r.startsWith('GET /v1/workspaces/acme/leads'));
    expect(leadReads).toHaveLength(1);
    expect(leadReads[0]).toMatch(/[?&]limit=20(&|$)/);
    expect(leadReads[0]).not.toMatch(/cursor=/);
    expect(requests.filter((r) => !r.startsWith('GET /v1/me')).length).toBe(1);
  });

  it('a lead entry carries our facts only: what the lead wrote stays out of listings', async () => {
    const injection = (await api('/v1/workspaces/acme/leads', { email: SPECIAL_EMAILS.injection })).data[0];
    const entry = resources.find((r) => r.uri === `inbox://acme/leads/${injection.id}`);
    expect(entry, 'the injection lead is among the newest').toBeDefined();
    expect(entry!.title).toContain(injection.id);
    expect(entry!.title).toContain(injection.status);
    expect(entry!.annotations?.lastModified).toBe(injection.last_message_at);
    const listed = JSON.stringify(resources);
    for (const outside of [injection.first_name, injection.company_name, injection.subject, 'IMPORTANT SYSTEM']) expect(listed).not.toContain(outside);
  });
});

describe('A lead: JSON with its assignees, open tasks and tags; outside text fenced', () => {
  let lead: any;
  beforeAll(async () => {
    const page = await api('/v1/workspaces/acme/leads', { limit: 200, expand: 'assignees,open_tasks,tags' });
    lead = page.data.find((l: any) => l.assignees.length > 0 && l.open_tasks.length > 0 && l.tags.length > 0);
    expect(lead, 'a seeded lead with assignees, open tasks and tags').toBeDefined();
  });

  it('reads as JSON: the lead with the same assignees, open tasks and tags as the API gives', async () => {
    const { text, mimeType } = await read(`inbox://acme/leads/${lead.id}`);
    expect(mimeType).toBe('application/json');
    const body = JSON.parse(text);
    expect(body.note).toBe(UNTRUSTED_NOTE);
    expect(body.lead).toMatchObject({ object: 'lead', id: lead.id, workspace: 'acme', status: lead.status });
    // The address and the lead's name are the lead's own text, fenced (issue 31 finding 10).
    expect(body.lead.email).toMatch(/^<untrusted-[0-9a-f]{6}>/);
    expect(withoutFence(body.lead.email)).toBe(lead.email);
    expect(body.lead.first_name).toMatch(/^<untrusted-[0-9a-f]{6}>.+<\/untrusted-[0-9a-f]{6}>$/);
    expect(body.lead.assignees.map((a: any) => a.id)).toEqual(lead.assignees.map((a: any) => a.id));
    expect(body.lead.open_tasks.map((t: any) => t.id)).toEqual(lead.open_tasks.map((t: any) => t.id));
    expect(body.lead.tags.map((t: any) => t.id)).toEqual(lead.tags.map((t: any) => t.id));
  });

  it('names, company and subject the lead wrote come fenced; our ids and states do not', async () => {
    const { text } = await read(`inbox://acme/leads/${lead.id}`);
    const body = JSON.parse(text);
    expect(body.lead.first_name).toMatch(new RegExp(`^<untrusted-[0-9a-f]{6}>${lead.first_name}</untrusted-[0-9a-f]{6}>$`));
    expect(body.lead.company_name).toContain(lead.company_name);
    expect(body.lead.company_name).not.toBe(lead.company_name);
    expect(body.lead.id).toBe(lead.id);
    expect(body.lead.assignees[0].name).toBe(lead.assignees[0].name);
  });

  it('the prompt-injection lead: its preview appears only inside fences', async () => {
    const injection = (await api('/v1/workspaces/acme/leads', { email: SPECIAL_EMAILS.injection })).data[0];
    const { text } = await read(`inbox://acme/leads/${injection.id}`);
    expect(expectFenced(text, 'IMPORTANT SYSTEM INSTRUCTION')).toBeGreaterThan(0);
  });
});

describe('Its conversation: markdown, one section per message with direction, sender, time and attachments; bodies fenced', () => {
  it('docs/resources-and-prompts.md states the count of messages and the body cut the resource has', () => {
    const row = readFileSync(new URL('../../docs/resources-and-prompts.md', import.meta.url), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('| `inbox://{workspace}/leads/{lead}/conversation`'));
    expect(row).toContain(`The newest ${DEFAULT_MESSAGES} messages`);
    expect(row).toContain(`bodies over ${DEFAULT_BODY_CHARS} characters are cut`);
  });

  let leadId = '';
  let messages: any[] = [];
  let text = '';
  beforeAll(async () => {
    const store = sandbox.store;
    const lead = store.leads.inGroup('acme').find(
      (l) =>
        store
          .conversation(l)
          .slice(-DEFAULT_MESSAGES)
          .some((m) => m.attachments.length > 0) && store.conversation(l).length > 1,
    )!;
    expect(lead, 'a seeded conversation with an attachment').toBeDefined();
    leadId = lead.id;
    messages = (await api(`/v1/workspaces/acme/leads/${leadId}/messages`, { order: 'desc', limit: DEFAULT_MESSAGES })).data.reverse();
    const r = await read(`inbox://acme/leads/${leadId}/conversation`);
    expect(r.mimeType).toBe('text/markdown');
    text = r.text;
  });

  it('a heading, the untrusted note, then one section per message, oldest first', () => {
    expect(text.startsWith(`# Conversation with lead ${leadId}`)).toBe(true);
    expect(text.indexOf(UNTRUSTED_NOTE)).toBeGreaterThan(0);
    const sections = [...text.matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1]));
    expect(sections).toEqual(messages.map((_, i) => i + 1));
    const ids = [...text.matchAll(/^- Message: (msg_\w+)$/gm)].map((m) => m[1]);
    expect(ids).toEqual(messages.map((m) => m.id));
  });

  it('each section names the direction, the sender, the time and the attachments (name and id)', () => {
    const parts = text.split(/^## \d+\. /m).slice(1);
    parts.forEach((part, i) => {
      const m = messages[i];
      expect(part).toContain(`- Direction: ${m.direction}`);
      expect(part).toContain(`- Time: ${m.sent_at}`);
      // The sender's address is outside text too: it sits inside the fence with the name.
      if (m.from_email)
        expect(part).toMatch(new RegExp(`^- From: <untrusted-[0-9a-f]{6}>.*<${m.from_email.replace(/[.+]/g, '\\$&')}></untrusted-[0-9a-f]{6}>$`, 'm'));
      if (m.attachments.length === 0) expect(part).toContain('- Attachments: none');
      for (const a of m.attachments) {
        expect(part).toContain(`(${a.id})`);
        expect(expectFenced(part, a.filename)).toBeGreaterThan(0);
      }
    });
    expect(messages.some((m) => m.attachments.length > 0)).toBe(true);
  });

  it('every body is a fenced block; sender names are fenced too', () => {
    const spans = fencesOf(text);
    const bodies = spans.filter(([a, b]) => text.slice(a, b).includes('source="email body"'));
    expect(bodies.length).toBe(messages.filter((m) => m.body_text || m.body_html).length);
    for (const m of messages) if (m.from_name) expectFenced(text, m.from_name);
  });

  it("the injection lead's conversation: the injected instruction is there, only inside a fence", async () => {
    const injection = (await api('/v1/workspaces/acme/leads', { email: SPECIAL_EMAILS.injection })).data[0];
    const { text: md } = await read(`inbox://acme/leads/${injection.id}/conversation`);
    expect(expectFenced(md, INJECTION_TEXT)).toBeGreaterThan(0);
  });
});

describe("The workspace's playbook, members and lead-tag roster, and the API's capabilities", () => {
  it('playbook: the sdr_notes as text under a heading naming the workspace', async () => {
    const ws = await api('/v1/workspaces/acme', { include: 'sdr_notes' });
    expect(ws.sdr_notes).toBeTruthy();
    const { text, mimeType } = await read('inbox://acme/playbook');
    expect(mimeType).toBe('text/markdown');
    expect(text.startsWith(`# Playbook of ${ws.name} (acme)`)).toBe(true);
    expect(text).toContain(htmlToText(ws.sdr_notes));
    expect(text).not.toMatch(/<p>/);
  });

  it('members: every member of the workspace, each record whole', async () => {
    const expected = await apiAll('/v1/workspaces/acme/members');
    const body = JSON.parse((await read('inbox://acme/members')).text);
    expect(body).toMatchObject({ workspace: 'acme', object: 'list', has_more: false });
    expect(body.data).toEqual(expected);
  });

  it('lead tags: the whole roster, across its pages', async () => {
    const expected = await apiAll('/v1/workspaces/acme/lead_tags');
    const body = JSON.parse((await read('inbox://acme/lead-tags')).text);
    expect(body.data).toEqual(expected);
    expect(body.partial).toBeUndefined();
  });

  it('the same templates serve another workspace the key reaches', async () => {
    const expected = await apiAll('/v1/workspaces/globex/members');
    expect(JSON.parse((await read('inbox://globex/members')).text).data).toEqual(expected);
  });

  it("capabilities: the API's capabilities object as is", async () => {
    const expected = await api('/v1/capabilities');
    expect(JSON.parse((await read('inbox://capabilities')).text)).toEqual(expected);
  });
});

describe("Reading what does not exist: the API's error, as a JSON-RPC error naming it", () => {
  it('an unknown lead is -32602 (resource not found, as 2026-07-28 says) carrying the API envelope and a next step', async () => {
    const err = await s.client.readResource({ uri: 'inbox://acme/leads/lead_doesnotexist1' }).then(
      () => null,
      (e: unknown) => e as { code: number; message: string; data: any },
    );
    expect(err?.code).toBe(-32602);
    expect(err?.data.error).toMatchObject({ code: 'not_found', status: 404, param: 'lead_id' });
    expect(err?.data.next_step).toMatch(/list_leads/);
  });

  it('a lead of another workspace reads as not found (tenant scope)', async () => {
    const acmeLead = (await api('/v1/workspaces/acme/leads', { limit: 1 })).data[0].id;
    const err = await s.client.readResource({ uri: `inbox://globex/leads/${acmeLead}` }).then(
      () => null,
      (e: unknown) => e as { code: number },
    );
    expect(err?.code).toBe(-32602);
  });

  it('a malformed lead id is refused before any request (-32602)', async () => {
    const from = proxy.requests.length;
    const err = await s.client.readResource({ uri: 'inbox://acme/leads/task_123/conversation' }).then(
      () => null,
      (e: unknown) => e as { code: number; message: string },
    );
    expect(err?.code).toBe(-32602);
    expect(err?.message).toMatch(/not a lead id/);
    expect(seenSince(from)).toEqual([]);
  });
});

describe('Completion of {workspace} (the slugs the key reaches) and {lead} (typed prefix: q, newest first, at most 20)', () => {
  it('workspace: every slug the admin key reaches, and by prefix', async () => {
    const me = await api('/v1/me');
    expect(await complete(LEAD_TPL, 'workspace', '')).toEqual(me.workspaces.map((w: any) => w.id));
    expect(await complete('inbox://{workspace}/members', 'workspace', 'gl')).toEqual(['globex']);
    expect(await complete(LEAD_TPL, 'workspace', 'zz')).toEqual([]);
  });

  it('lead, nothing typed: the 20 newest leads of the default workspace', async () => {
    const newest = (await api('/v1/workspaces/acme/leads', { limit: 20 })).data.map((l: any) => l.id);
    expect(await complete(LEAD_TPL, 'lead', '')).toEqual(newest);
  });

  it("lead, a name typed: the API's prefix search q, newest first, sent as q and limit=20", async () => {
    const from = proxy.requests.length;
    const got = await complete(CONVERSATION_TPL, 'lead', 'mallory');
    const expected = (await api('/v1/workspaces/acme/leads', { q: 'mallory', limit: 20 })).data.map((l: any) => l.id);
    expect(got).toEqual(expected);
    expect(got.length).toBeGreaterThan(0);
    expect(seenSince(from).filter((r) => r.includes('/leads?'))).toEqual(['GET /v1/workspaces/acme/leads?q=mallory&limit=20']);
  });

  it('lead, a broad prefix: at most 20 values, the newest matches', async () => {
    const got = await complete(LEAD_TPL, 'lead', 'a');
    const expected = (await api('/v1/workspaces/acme/leads', { q: 'a', limit: 20 })).data.map((l: any) => l.id);
    expect(expected).toHaveLength(20);
    expect(got).toEqual(expected);
  });

  it('lead, an id prefix typed: the newest ids that start with it', async () => {
    const target = (await api('/v1/workspaces/acme/leads', { limit: 50 })).data[37].id as string;
    const prefix = target.slice(0, 9);
    const got = await complete(LEAD_TPL, 'lead', prefix);
    expect(got).toContain(target);
    for (const id of got) expect(id.startsWith(prefix)).toBe(true);
  });

  it('lead in the workspace already chosen in the request', async () => {
    const got = await complete(LEAD_TPL, 'lead', '', { workspace: 'globex' });
    const expected = (await api('/v1/workspaces/globex/leads', { limit: 20 })).data.map((l: any) => l.id);
    expect(got).toEqual(expected);
  });

  it('a workspace the key cannot reach completes nothing, and is no error', async () => {
    expect(await complete(LEAD_TPL, 'lead', '', { workspace: 'nosuch' })).toEqual([]);
  });
});

describe('Tool results point at these resources with resource_link where that saves a call', () => {
  it("get_lead links the lead's conversation, which reads as the conversation resource", async () => {
    const lead = (await api('/v1/workspaces/acme/leads', { limit: 1 })).data[0].id;
    const { result } = await callOk(s, 'get_lead', { lead_id: lead });
    const link = (result as CallToolResult).content.find((c) => c.type === 'resource_link') as { uri: string; mimeType?: string } | undefined;
    expect(link).toMatchObject({ uri: `inbox://acme/leads/${lead}/conversation`, mimeType: 'text/markdown' });
    expect((await read(link!.uri)).text).toContain(`# Conversation with lead ${lead}`);
  });

  it('get_conversation links the lead (with assignees, open tasks and tags)', async () => {
    const lead = (await api('/v1/workspaces/globex/leads', { limit: 1 })).data[0].id;
    const { result } = await callOk(s, 'get_conversation', { workspace: 'globex', lead_id: lead });
    const link = (result as CallToolResult).content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
    expect(link?.uri).toBe(`inbox://globex/leads/${lead}`);
    expect(JSON.parse((await read(link!.uri)).text).lead.id).toBe(lead);
  });
});
