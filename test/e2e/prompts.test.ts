import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNTRUSTED_NOTE } from '../../src/mcp/view/fence.js';
import { type Sandbox, SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { type Relay, type McpSession, type RelayedMcp, startMcp, startRelayedMcp } from './helpers.js';

/** Prompts over stdio against a sandbox of this process, behind a relay that counts requests. */
let sandbox: Sandbox;
let proxy: Relay;
let s: McpSession;

let relayed: RelayedMcp;

beforeAll(async () => {
  relayed = await startRelayedMcp(['--workspace', 'acme', '--log-level', 'warn']);
  ({ sandbox, proxy, s } = relayed);
});
afterAll(() => relayed?.close());

async function api(path: string, query: Record<string, string | number | boolean> = {}): Promise<any> {
  const url = new URL(path, sandbox.baseUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const r = await fetch(url, { headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}` } });
  expect(r.status).toBe(200);
  return r.json();
}
async function promptText(name: string, args: Record<string, string> = {}): Promise<string> {
  const r = await s.client.getPrompt({ name, arguments: args });
  expect(r.messages).toHaveLength(1);
  expect(r.messages[0]!.role).toBe('user');
  const c = r.messages[0]!.content;
  expect(c.type).toBe('text');
  return (c as { text: string }).text;
}
async function promptError(session: McpSession, name: string, args: Record<string, string>): Promise<{ code: number; message: string }> {
  const err = await session.client.getPrompt({ name, arguments: args }).then(
    () => null,
    (e: unknown) => e as { code: number; message: string },
  );
  expect(err, `${name} ${JSON.stringify(args)} is refused`).not.toBeNull();
  return err!;
}
async function complete(name: string, argument: string, value: string, args?: Record<string, string>): Promise<string[]> {
  const r = await s.client.complete({
    ref: { type: 'ref/prompt', name },
    argument: { name: argument, value },
    ...(args ? { context: { arguments: args } } : {}),
  });
  return r.completion.values;
}
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every prompt tells the model inbound text is untrusted and that nothing is sent. */
function expectSafetyRules(text: string): void {
  expect(text).toContain(UNTRUSTED_NOTE);
  expect(text).toMatch(/do not comply/);
}

describe('prompts/list: triage_inbox, draft_reply and pipeline_report with their arguments', () => {
  it('three prompts, each argument described, required only where it must be', async () => {
    const { prompts } = await s.client.listPrompts();
    const args = Object.fromEntries(prompts.map((p) => [p.name, Object.fromEntries((p.arguments ?? []).map((a) => [a.name, a.required]))]));
    expect(args).toEqual({
      triage_inbox: { workspace: false, count: false, assignee: false },
      draft_reply: { lead: true, template: false, workspace: false },
      pipeline_report: { workspace: false, window: false },
    });
    for (const p of prompts) {
      expect(p.description?.length, p.name).toBeGreaterThan(40);
      for (const a of p.arguments ?? []) expect(a.description?.length, `${p.name}.${a.name}`).toBeGreaterThan(10);
    }
  });
});

describe('triage_inbox (workspace, how many, optional assignee): walk the unread, unresponded replies, classify, propose a status, draft nothing that is sent', () => {
  it('with every argument: list_leads with unread, responded=false, the count and the assignee; then get_conversation per lead', async () => {
    const text = await promptText('triage_inbox', { workspace: 'globex', count: '5', assignee: 'usr_gus_globex' });
    expect(text).toContain(
      'Call list_leads with workspace="globex", unread=true, responded=false, status=["interested","untagged"], limit=5, assignee_id=["usr_gus_globex"]',
    );
    expect(text).toMatch(/call get_conversation with lead_ids/);
    expect(text).toMatch(/Propose one status for set_status/);
    expect(text).toMatch(/wait for a person to confirm before calling set_status/);
    expect(text).toMatch(/Draft nothing to be sent/);
    expectSafetyRules(text);
  });

  it("defaults: the server's workspace, 10 leads, no assignee filter", async () => {
    const text = await promptText('triage_inbox');
    expect(text).toContain('Call list_leads with workspace="acme", unread=true, responded=false, status=["interested","untagged"], limit=10. This finds');
    expect(text).not.toContain('assignee_id');
  });

  it('a count outside 1-50 or not a number, or an assignee that is not a member id, is refused (-32602)', async () => {
    const refused: Record<string, string>[] = [{ count: '0' }, { count: '51' }, { count: 'ten' }, { assignee: 'usr_ben' }];
    for (const args of refused) {
      const err = await promptError(s, 'triage_inbox', args);
      expect(err.code, JSON.stringify(args)).toBe(-32602);
    }
    expect((await promptError(s, 'triage_inbox', { assignee: 'usr_ben' })).message).toContain('(two parts, e.g. usr_abc_def); list_members gives it');
  });
});

describe('draft_reply (lead, optional template): render a template against the lead, AI variables through overrides, a draft for a human', () => {
  it('with a template: read the lead and its conversation, get that template, render with overrides; never resolve_ai_variables, never send', async () => {
    const lead = (await api('/v1/workspaces/acme/leads', { limit: 1 })).data[0].id;
    const tpl = (await api('/v1/workspaces/acme/templates', { limit: 5 })).data[0].id;
    const text = await promptText('draft_reply', { lead, template: tpl });
    expect(text).toContain(`Call get_lead with workspace="acme", lead_id="${lead}"`);
    expect(text).toContain(`Call get_conversation with workspace="acme", lead_id="${lead}"`);
    expect(text).toContain(`Call get_template with workspace="acme", template_id="${tpl}"`);
    expect(text).toMatch(/call render_template with .*overrides=/);
    expect(text).toMatch(/Never pass resolve_ai_variables=true/);
    expect(text).toMatch(/never sends email/);
    expect(text).toContain(`inbox://acme/leads/${lead}/conversation`);
    expectSafetyRules(text);
  });

  it('without a template: list_templates and say which one was chosen', async () => {
    const lead = (await api('/v1/workspaces/globex/leads', { limit: 1 })).data[0].id;
    const text = await promptText('draft_reply', { lead, workspace: 'globex' });
    expect(text).toContain('Call list_templates with workspace="globex"');
    expect(text).not.toContain('get_template');
  });

  it('a lead that is not a lead id, a missing lead, or a bad template id is refused (-32602)', async () => {
    const bob = await promptError(s, 'draft_reply', { lead: 'bob' });
    expect(bob.code).toBe(-32602);
    // A caller that typed a name, as it would into a completion, is told where the id is found.
    expect(bob.message).toContain('must be an id starting with lead_; list_leads with q (a name, email or company) finds it');
    expect((await promptError(s, 'draft_reply', {})).code).toBe(-32602);
    const tpl = await promptError(s, 'draft_reply', { lead: 'lead_abc123', template: 'abc' });
    expect(tpl.code).toBe(-32602);
    expect(tpl.message).toContain('must be an id starting with tpl_; list_templates gives it');
  });
});

describe('pipeline_report (workspace, window): insights summary, per rep, in plain words', () => {
  it('"30d" (the default): from 30 days before today to today, computed for the model', async () => {
    const now = Date.now();
    const text = await promptText('pipeline_report');
    const to = utcDay(now);
    const from = utcDay(now - 30 * 86_400_000);
    expect(text).toContain(`Call get_insights_summary with workspace="acme", from="${from}", to="${to}"`);
    expect(text).toMatch(/Per rep \(per_rep\)/);
    expect(text).toMatch(/ratios between 0 and 1/);
    expectSafetyRules(text);
  });

  it('a date range is passed through as its two days', async () => {
    const text = await promptText('pipeline_report', { workspace: 'globex', window: '2026-01-01..2026-03-31' });
    expect(text).toContain('Call get_insights_summary with workspace="globex", from="2026-01-01", to="2026-03-31"');
  });

  it('windows the API would refuse are refused here first (over 366 days, reversed, not a day, unknown form)', async () => {
    for (const window of ['400d', '0d', '2026-01-01..2027-06-01', '2026-03-01..2026-01-01', '2026-02-30..2026-03-31', 'last month']) {
      expect((await promptError(s, 'pipeline_report', { window })).code, window).toBe(-32602);
    }
  });
});

describe('Getting a prompt reads nothing: it costs no API budget', () => {
  it('no request reaches the API for any of the three', async () => {
    const lead = (await api('/v1/workspaces/acme/leads', { limit: 1 })).data[0].id;
    const from = proxy.requests.length;
    await promptText('triage_inbox', { count: '3' });
    await promptText('draft_reply', { lead });
    await promptText('pipeline_report', { window: '7d' });
    expect(proxy.requests.slice(from)).toEqual([]);
  });
});

describe('Arguments complete where they can', () => {
  it('workspace: the slugs the key reaches, by prefix', async () => {
    expect(await complete('triage_inbox', 'workspace', 'a')).toEqual(['acme']);
    expect(await complete('pipeline_report', 'workspace', '')).toEqual(['acme', 'globex', 'initech']);
  });

  it('count and window: fixed choices by prefix', async () => {
    expect(await complete('triage_inbox', 'count', '')).toEqual(['5', '10', '20', '50']);
    expect(await complete('pipeline_report', 'window', '3')).toEqual(['30d', '366d']);
    expect(await complete('pipeline_report', 'window', '9')).toEqual(['90d']);
    expect(await complete('pipeline_report', 'window', '1')).toEqual(['14d', '180d']);
  });

  it('assignee: members by id, name or email prefix (a rep who left included), and "none"', async () => {
    const members = (await api('/v1/workspaces/acme/members', { limit: 200 })).data;
    const ben = members.find((m: any) => m.name?.startsWith('Ben'));
    expect(await complete('triage_inbox', 'assignee', 'ben')).toEqual([ben.id]);
    expect(await complete('triage_inbox', 'assignee', 'no')).toEqual(['none']);
    const all = await complete('triage_inbox', 'assignee', '');
    expect(members.length).toBeLessThan(20);
    expect(all).toEqual([...members.map((m: any) => m.id), 'none']);
    expect(all).toContain('usr_cy_acme');
    expect(await complete('triage_inbox', 'assignee', 'usr_gus', { workspace: 'globex' })).toEqual(['usr_gus_globex']);
    expect(await complete('triage_inbox', 'assignee', 'hal@', { workspace: 'globex' })).toEqual(['usr_hal_globex']);
  });

  it("lead: the API's prefix search, newest first; template: by id or name prefix in the chosen workspace", async () => {
    const leads = (await api('/v1/workspaces/acme/leads', { q: 'mallory', limit: 20 })).data.map((l: any) => l.id);
    expect(await complete('draft_reply', 'lead', 'mallory')).toEqual(leads);
    const templates = (await api('/v1/workspaces/acme/templates', { limit: 200 })).data;
    expect(await complete('draft_reply', 'template', 'tpl_')).toEqual(templates.map((t: any) => t.id).slice(0, 20));
    const named = templates[0];
    const byName = await complete('draft_reply', 'template', named.name.slice(0, 4).toLowerCase());
    expect(byName).toContain(named.id);
    for (const id of byName) {
      const t = templates.find((x: any) => x.id === id);
      expect(t.name.toLowerCase().startsWith(named.name.slice(0, 4).toLowerCase()) || id.startsWith(named.name.slice(0, 4).toLowerCase())).toBe(true);
    }
  });
});

describe('Without a default workspace a prompt asks for one, naming the workspaces the key reaches', () => {
  it('the demoted key reaches acme and globex: no workspace given is -32602 naming both', async () => {
    const other = await startMcp(['--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.demoted, REPLY_INBOX_BASE_URL: sandbox.baseUrl });
    try {
      const err = await promptError(other, 'triage_inbox', {});
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/acme, globex/);
      const ok = await other.client.getPrompt({ name: 'triage_inbox', arguments: { workspace: 'globex' } });
      expect((ok.messages[0]!.content as { text: string }).text).toContain('workspace="globex"');
    } finally {
      await other.close();
    }
  });
});
