import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type McpSession, startMcp, textOf } from './helpers.js';
import { UNTRUSTED_LINE, UNTRUSTED_MARK } from '../../src/mcp/view/fence.js';

/**
 * What the model reads, in bytes, in both forms a host may forward: the text content, and
 * JSON.stringify(structuredContent) (what Claude Code shows the model instead of the text).
 */
let sandbox: Sandbox;
let s: McpSession;
let small: McpSession;
const SMALL_BUDGET = 8_000;

const bytes = (t: string) => Buffer.byteLength(t, 'utf8');
const json = (r: CallToolResult) => bytes(JSON.stringify(r.structuredContent ?? {}));
async function call(session: McpSession, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name}: ${textOf(r)}`);
  return r;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  const env = { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sandbox.baseUrl };
  [s, small] = await Promise.all([
    startMcp(['--workspace', 'acme', '--log-level', 'warn'], env),
    startMcp(['--workspace', 'acme', '--log-level', 'warn'], { ...env, REPLY_INBOX_MAX_RESULT_BYTES: String(SMALL_BUDGET) }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), small?.close()]);
  await sandbox?.close();
});

describe('Compact views: a 20-item page fits its budget in the text and in structuredContent', () => {
  it('list_leads, 20 leads: at most 5,000 bytes of text and 7,000 bytes of JSON, every column labelled', async () => {
    const r = await call(s, 'list_leads', { limit: 20 });
    expect((r.structuredContent as { data: unknown[] }).data).toHaveLength(20);
    expect(bytes(textOf(r))).toBeLessThanOrEqual(5_000);
    expect(json(r)).toBeLessThanOrEqual(7_000);
    expect(textOf(r)).toMatch(/\| # \| id \| flags \| status \| state \| last_message_at \| assignee_ids \| classification \|/);
  });
  // A meeting's invitee address and domain are fenced in structuredContent as in the text (issue 31, finding 10): 9,000 bytes for them.
  for (const [tool, args, maxJson] of [
    ['list_meetings', { limit: 20 }, 9_000],
    ['list_event_types', { limit: 20 }, 8_000],
    ['list_templates', { limit: 20 }, 8_000],
  ] as const) {
    it(`${tool}, a page of up to 20: at most 6,000 bytes of text and ${maxJson.toLocaleString('en-US')} bytes of JSON`, async () => {
      const r = await call(s, tool, args);
      expect((r.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect(bytes(textOf(r))).toBeLessThanOrEqual(6_000);
      expect(json(r)).toBeLessThanOrEqual(maxJson);
    });
  }
});

describe('Write answers: the id, what changed and effects verbatim, in at most 700 bytes of text and 900 of JSON', () => {
  it('set_status: text and structuredContent both carry every key of effects, provider_writes included', async () => {
    const lead = sandbox.store.leads.inGroup('acme').find((l) => l.state === 'active')!;
    const r = await call(s, 'set_status', { lead_id: lead.id, status: 'not_interested' });
    const effects = (r.structuredContent as { effects: Record<string, unknown> }).effects;
    expect(Object.keys(effects)).toEqual(expect.arrayContaining(['provider_writes', 'lead_status_set', 'replies_updated', 'tasks_completed']));
    expect(textOf(r)).toContain(`effects: ${JSON.stringify(effects)}`);
    expect(r.structuredContent).toMatchObject({ object: 'lead', id: lead.id, status: 'not_interested' });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(700);
    expect(json(r)).toBeLessThanOrEqual(900);
  });
  it('set_meeting_outcome: compact by default, the whole meeting with view=full', async () => {
    const [m1, m2] = sandbox.store.meetings.inGroup('acme').filter((m) => !m.outcome && !m.locked);
    const r = await call(s, 'set_meeting_outcome', { meeting_id: m1!.id, outcome: 'showed' });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(700);
    expect(json(r)).toBeLessThanOrEqual(900);
    expect(r.structuredContent).toMatchObject({ object: 'meeting', id: m1!.id, outcome: 'showed', locked: true });
    const full = await call(s, 'set_meeting_outcome', { meeting_id: m2!.id, outcome: 'no_show', view: 'full' });
    expect(full.structuredContent).toHaveProperty('invitee');
  });
  it("create_task: the agent's own notes are not presented as outsider text, in either form", async () => {
    const lead = sandbox.store.leads.inGroup('acme')[0]!;
    const r = await call(s, 'create_task', { lead_id: lead.id, due_date: '2026-12-02', notes: 'Wants pricing in EUR', view: 'full' });
    expect((r.structuredContent as { notes: string }).notes).toBe('Wants pricing in EUR');
    expect(JSON.stringify(r.structuredContent)).not.toContain('<untrusted-');
    const compact = await call(s, 'create_task', { lead_id: lead.id, due_date: '2026-12-03', notes: 'Second call' });
    expect(textOf(compact)).toContain('notes="Second call"');
    expect(bytes(textOf(compact))).toBeLessThanOrEqual(700);
  });
});

describe('Every result has a byte budget (24,576 bytes by default, --max-result-bytes)', () => {
  it('list_leads max_items 1000 view=full: cut at a lead, both forms within the budget, the rest one cursor away', async () => {
    const r = await call(s, 'list_leads', { max_items: 1000, view: 'full' });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(24_576);
    expect(json(r)).toBeLessThanOrEqual(24_576);
    const sc = r.structuredContent as {
      data: { id: string }[];
      has_more: boolean;
      next_cursor: string;
      left_out: { count: number; fetch_rest: Record<string, unknown> };
    };
    expect(sc.left_out.count).toBeGreaterThan(0);
    expect(sc.has_more).toBe(true);
    // The read goes on for what is left of its bound, never from the start again.
    expect(sc.left_out.fetch_rest).toMatchObject({ max_items: 1000 - sc.data.length, view: 'full', cursor: sc.next_cursor });
    expect(textOf(r)).toContain(`${sc.left_out.count} of `);
    expect(textOf(r)).toContain(JSON.stringify(sc.left_out.fetch_rest));
    // The continuation starts exactly at the first lead left out.
    const all = await call(s, 'list_leads', { max_items: 1000, fields: ['state'] });
    const ids = (all.structuredContent as { data: { id: string }[] }).data.map((l) => l.id);
    const next = await call(s, 'list_leads', { cursor: sc.next_cursor, limit: 3, fields: ['state'] });
    expect((next.structuredContent as { data: { id: string }[] }).data.map((l) => l.id)).toEqual(ids.slice(sc.data.length, sc.data.length + 3));
  });
  it('a smaller budget from REPLY_INBOX_MAX_RESULT_BYTES: a single page is cut inside it, and its cursor continues right after the cut', async () => {
    const r = await call(small, 'list_leads', { limit: 200, view: 'full' });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(SMALL_BUDGET);
    expect(json(r)).toBeLessThanOrEqual(SMALL_BUDGET);
    const sc = r.structuredContent as { data: { id: string }[]; next_cursor: string; left_out: { count: number } };
    expect(sc.data.length + sc.left_out.count).toBe(200);
    const whole = await call(s, 'list_leads', { limit: 200, fields: ['state'] });
    const ids = (whole.structuredContent as { data: { id: string }[] }).data.map((l) => l.id);
    expect(sc.data.map((l) => l.id)).toEqual(ids.slice(0, sc.data.length));
    const next = await call(small, 'list_leads', { cursor: sc.next_cursor, limit: 2, fields: ['state'] });
    expect((next.structuredContent as { data: { id: string }[] }).data.map((l) => l.id)).toEqual(ids.slice(sc.data.length, sc.data.length + 2));
  });
  it('get_conversation limit 200 with whole bodies: the newest messages kept, never a fence cut, and how to read the older ones', async () => {
    const long = sandbox.store.leadByEmail.get('acme\u0000lena.long@chatty.example')!;
    const r = await call(small, 'get_conversation', { lead_id: long.id, limit: 200, max_body_chars: 100_000 });
    const text = textOf(r);
    expect(bytes(text)).toBeLessThanOrEqual(SMALL_BUDGET);
    expect(json(r)).toBeLessThanOrEqual(SMALL_BUDGET);
    const tag = /<(untrusted-[0-9a-f]{6})/.exec(text)![1]!;
    expect(text.split(`<${tag}`).length).toBe(text.split(`</${tag}>`).length);
    const sc = r.structuredContent as { messages: unknown[]; left_out: { count: number; fetch_rest: Record<string, unknown> } };
    expect(sc.left_out.count).toBeGreaterThan(0);
    // The rest is read on from the first message left out, with every other argument of this call, for all that are left.
    expect(sc.left_out.fetch_rest).toEqual({ lead_id: long.id, limit: 200 - sc.messages.length, max_body_chars: 100_000, offset: sc.messages.length });
    expect(text).toContain('left out to keep this result within 8000 bytes');
  });
  it('the conversation resource keeps to the budget too', async () => {
    const long = sandbox.store.leadByEmail.get('acme\u0000lena.long@chatty.example')!;
    const res = await small.client.readResource({ uri: `inbox://acme/leads/${long.id}/conversation` });
    expect(bytes((res.contents[0] as { text: string }).text)).toBeLessThanOrEqual(SMALL_BUDGET);
  });
  it('--max-result-bytes below 4096 is refused at start', async () => {
    await expect(startMcp(['--sandbox', '--max-result-bytes', '100'])).rejects.toThrow();
  });
});

describe('A draft a person can send: render_template answers subject and body each as one fenced block', () => {
  it('one fence around each whole block, never fences inside it; the values from the lead and from overrides are listed; both forms agree', async () => {
    const tpl = sandbox.store.templates.inGroup('acme').find((t) => t.ai_variables.length > 0 && /first_name/.test(t.body))!;
    const lead = sandbox.store.leads.inGroup('acme').find((l) => l.first_name)!;
    const overrides = Object.fromEntries(tpl.ai_variables.map((v) => [v.name, `Opening line written by the agent for ${v.name}`]));
    const r = await call(s, 'render_template', { template_id: tpl.id, lead_id: lead.id, overrides });
    const sc = r.structuredContent as Record<string, unknown>;
    const tag = /<(untrusted-[0-9a-f]{6})>/.exec(String(sc.body))![1]!;
    for (const field of ['subject', 'body'] as const) {
      const v = String(sc[field]);
      // One block: the fence opens first and closes last, and nothing in between opens or closes one.
      expect(v.startsWith(`<${tag}>`) && v.endsWith(`</${tag}>`), field).toBe(true);
      expect(v.split(tag).length, `${field}: one fence`).toBe(3);
    }
    for (const value of Object.values(overrides)) expect(String(sc.body)).toContain(value);
    expect(String(sc.body)).toContain(lead.first_name!);
    expect(sc.values_from_overrides).toEqual(expect.arrayContaining(Object.keys(overrides)));
    expect(sc.values_from_api).toContain('first_name');
    expect(sc.values_from_api).not.toEqual(expect.arrayContaining(Object.keys(overrides)));
    const text = textOf(r);
    // The draft's blocks: subject, body, and the reply's subject that keeps the lead's thread.
    expect(text.split(`<${tag} source="draft `).length, 'the text: three draft blocks').toBe(4);
    expect(text).toContain(`<${tag} source="draft reply subject">`);
    expect(text).toContain(`<${tag} source="draft body">`);
    expect(text).toContain(`values_from_api: ${(sc.values_from_api as string[]).join(', ')}`);
    // The marker on the first line of each form; the instructions say once what fenced text is, a draft's too.
    expect(text.startsWith(UNTRUSTED_LINE)).toBe(true);
    expect(sc.untrusted).toBe(UNTRUSTED_MARK);
    expect(s.client.getInstructions()).toContain('carries their words (a draft filled from a lead record)');
  });
});
