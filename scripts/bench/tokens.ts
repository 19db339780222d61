/**
 * Tokens: what the model reads, in both forms a host may forward (the text, and
 * JSON.stringify(structuredContent), which is all Claude Code shows the model), against
 * the raw API JSON of the same data.
 */
import pino from 'pino';
import { ReplyInboxClient } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../../src/mcp/view/result-budget.js';
import { type Cell, type Section, jsonBytes, mcpSession, sandbox, textBytes, UNMETERED } from './lib.js';

type Result = Record<string, unknown>;
const ratio = (part: number, whole: number | null) => (whole ? Number((part / whole).toFixed(2)) : null);
const INJECTION_EMAIL = 'mallory@evil-corp.example';

export async function tokens(): Promise<Section[]> {
  // Two sandboxes seeded alike: the MCP session works one, the raw API reads of the same data go to the other.
  const sb = await sandbox(UNMETERED);
  const rawSb = await sandbox(UNMETERED);
  const s = await mcpSession(sb);
  const { raw, close: closeRaw } = rawReader(rawSb);
  const call = async (name: string, args: Record<string, unknown>) => (await s.client.callTool({ name, arguments: args })) as Result;

  const { tools } = await s.client.listTools();
  const visible = (list: typeof tools) =>
    Buffer.byteLength(JSON.stringify(list.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
  const triage = await mcpSession(sb, { args: ['--toolsets', 'workspaces,leads,conversations,templates'] });
  const triageTools = (await triage.client.listTools()).tools;
  await triage.close();

  const rows: MeasuredRow[] = [
    [`tool list, all ${tools.length} tools (name + description + input schema)`, visible(tools), null],
    [`tool list, triage toolsets only (${triageTools.length} tools: workspaces, leads, conversations, templates)`, visible(triageTools), null],
    ...(await measuredCalls(call, raw, sb.store)),
  ];
  const session = await triageSession(call, raw, injectionLead(sb));
  await s.close();
  await closeRaw();
  await sb.close();
  await rawSb.close();
  const row = ([what, r, rawBytes]: [string, Result | number, number | null]): Cell[] => {
    const text = typeof r === 'number' ? r : textBytes(r);
    const json = typeof r === 'number' ? null : jsonBytes(r);
    return [what, text, json, Math.round(Math.max(text, json ?? 0) / 4), rawBytes, ratio(text, rawBytes), json === null ? null : ratio(json, rawBytes)];
  };
  return [
    {
      title: 'Tokens: what the model reads',
      note: `Bytes of the text content and of JSON.stringify(structuredContent) (what Claude Code shows the model instead of the text), tokens estimated as bytes/4 of the larger, against the raw API JSON for the same data. Fencing of outside text is included. Budgets: a 20-lead page ≤ 5,000 text / 7,000 JSON; 20 meetings, event types or templates ≤ 6,000 / 8,000; a write ≤ 700 / 900; every result ≤ ${DEFAULT_MAX_RESULT_BYTES} in each form.`,
      columns: ['what', 'text bytes', 'structuredContent bytes', '≈ tokens', 'raw API JSON bytes', 'text ÷ raw', 'structured ÷ raw'],
      rows: rows.map(row),
    },
    {
      title: "Tokens: the demo's triage session",
      note: `The calls of \`npm run demo\`'s triage (find unread interested leads, find the injection lead, read its conversation, list templates, render a draft, set a status): bytes the model reads in each form, summed, against the raw API JSON of the same calls. Target: at most ${pct(DEMO_TARGET.text)} as text and ${pct(DEMO_TARGET.json)} as structuredContent (test/unit/demo-figure.test.ts).`,
      columns: ['call', 'text bytes', 'structuredContent bytes', 'raw API JSON bytes'],
      rows: [...session.map((c) => [c.call, c.text, c.json, c.raw]), ['session total', ...totals(session)], ['share of the raw API JSON', ...shares(session)]],
    },
  ];
}

type MeasuredRow = [string, Result | number, number | null];
type Call = (name: string, args: Record<string, unknown>) => Promise<Result>;
type Raw = (name: EndpointName, req: { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown }) => Promise<number>;

/**
 * The most the demo's triage session may read, as a share of the raw API JSON, in each form.
 * structuredContent stays above 35%: it fences each outsider value on its own (37 bytes a
 * value) and names every field on every row, where the text fences a page once and names
 * a column once.
 */
export const DEMO_TARGET = { text: 0.35, json: 0.41 } as const;
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** Bytes of the raw API JSON of a call, read with our client from a sandbox (one seeded like the session's). */
export function rawReader(sb: Awaited<ReturnType<typeof sandbox>>): { raw: Raw; close(): Promise<void> } {
  const api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logger: pino({ level: 'silent' }) });
  return {
    raw: async (name, req) =>
      Buffer.byteLength(
        JSON.stringify((await api.request(endpoint(name), { path: { workspace: 'acme', ...(req.path ?? {}) }, query: req.query, body: req.body })).data),
      ),
    close: () => api.close(),
  };
}

/** The seeded lead whose reply carries the injection attempt. */
export const injectionLead = (sb: Awaited<ReturnType<typeof sandbox>>) => sb.store.leadByEmail.get(`acme\u0000${INJECTION_EMAIL}`)!.id;

/** Each kind of call the model makes, with the raw API JSON of the same data. */
async function measuredCalls(call: Call, raw: Raw, store: Awaited<ReturnType<typeof sandbox>>['store']): Promise<MeasuredRow[]> {
  const page = await call('list_leads', { limit: 20 });
  const leadId = (page.structuredContent as { data: { id: string }[] }).data[0]!.id;
  const long = store.leadByEmail.get('acme\u0000lena.long@chatty.example')!;
  const meetingIds = store.meetings
    .inGroup('acme')
    .filter((m) => !m.outcome && !m.locked)
    .map((m) => m.id);
  const statusLead = store.leads.inGroup('acme').find((l) => l.state === 'active' && l.status === 'interested')!.id;

  return [
    ['list_leads, 20 leads, default (compact) view', page, await raw('list_leads', { query: { limit: 20 } })],
    ['list_leads, 20 leads, view=full', await call('list_leads', { limit: 20, view: 'full' }), await raw('list_leads', { query: { limit: 20 } })],
    ['list_meetings, 20 meetings, default view', await call('list_meetings', { limit: 20 }), await raw('list_meetings', { query: { limit: 20 } })],
    [
      'list_event_types, a page of up to 20, default view',
      await call('list_event_types', { limit: 20 }),
      await raw('list_event_types', { query: { limit: 20 } }),
    ],
    ['list_templates, a page of up to 20, default view', await call('list_templates', { limit: 20 }), await raw('list_templates', { query: { limit: 20 } })],
    [
      'get_conversation, default, newest lead',
      await call('get_conversation', { lead_id: leadId }),
      await raw('get_conversation', { path: { lead_id: leadId }, query: { limit: 50 } }),
    ],
    [
      'get_conversation, default, a 230-message thread (the newest 10 shown)',
      await call('get_conversation', { lead_id: long.id }),
      await raw('get_conversation', { path: { lead_id: long.id }, query: { limit: 50 } }),
    ],
    [
      'write: set_status (id, fields set, effects)',
      await call('set_status', { lead_id: statusLead, status: 'not_interested' }),
      await raw('set_status', { path: { lead_id: statusLead }, body: { status: 'not_interested' } }),
    ],
    [
      'write: set_meeting_outcome',
      await call('set_meeting_outcome', { meeting_id: meetingIds[0]!, outcome: 'showed' }),
      await raw('set_meeting_outcome', { path: { meeting_id: meetingIds[0]! }, body: { outcome: 'showed' } }),
    ],
    [
      'write: create_task',
      await call('create_task', { lead_id: leadId, due_date: '2026-12-01', notes: 'Send pricing' }),
      await raw('create_task', { body: { lead_id: leadId, due_date: '2026-12-01', notes: 'Send pricing' } }),
    ],
    [
      `largest: list_leads max_items 1000, view=full (cut to the ${DEFAULT_MAX_RESULT_BYTES}-byte budget)`,
      await call('list_leads', { max_items: 1000, view: 'full' }),
      null,
    ],
    [
      'largest: get_conversation limit 200, whole bodies, the 230-message thread',
      await call('get_conversation', { lead_id: long.id, limit: 200, max_body_chars: 100_000 }),
      await raw('get_conversation', { path: { lead_id: long.id }, query: { limit: 200 } }),
    ],
    ['largest: list_meetings all', await call('list_meetings', { all: true }), null],
  ];
}

export interface Step {
  call: string;
  text: number;
  json: number;
  raw: number;
}

/** The demo's triage calls, as an agent makes them, each measured with its raw API counterpart. */
export async function triageSession(call: (name: string, args: Record<string, unknown>) => Promise<Result>, raw: Raw, mallory: string): Promise<Step[]> {
  const steps: Step[] = [];
  // The raw counterpart is every request a client without this server makes for the same facts.
  const step = async (name: EndpointName, args: Record<string, unknown>, req: Parameters<typeof raw>[1], also?: [EndpointName, Parameters<typeof raw>[1]]) => {
    const r = await call(name, args);
    const bytes = (await raw(name, req)) + (also ? await raw(...also) : 0);
    steps.push({ call: `${name} ${JSON.stringify(args)}`, text: textBytes(r), json: jsonBytes(r), raw: bytes });
    return r;
  };
  const inbox = await step('list_leads', { status: ['interested'], unread: true, limit: 5 }, { query: { status: ['interested'], unread: true, limit: 5 } });
  const lead = (inbox.structuredContent as { data: { id: string }[] }).data.find((l) => l.id !== mallory)!.id;
  await step('list_leads', { email: INJECTION_EMAIL }, { query: { email: INJECTION_EMAIL } });
  await step('get_conversation', { lead_id: mallory }, { path: { lead_id: mallory }, query: { limit: 50 } });
  const templates = await step('list_templates', { limit: 50 }, { query: { limit: 50 } });
  const tpl = (templates.structuredContent as { data: { id: string; ai_variables: { name: string }[] }[] }).data.find(
    (t) => (t.ai_variables ?? []).length > 0,
  )!;
  const overrides = Object.fromEntries(tpl.ai_variables.map((v) => [v.name, `[${v.name}: written by the agent after reading the thread]`]));
  // The draft's reply (subject, message answered, sender) comes from the lead's messages, read as render_template reads them.
  await step('render_template', { template_id: tpl.id, lead_id: lead, overrides }, { path: { template_id: tpl.id }, body: { lead_id: lead, overrides } }, [
    'get_conversation',
    { path: { lead_id: lead }, query: { order: 'desc', limit: 200 } },
  ]);
  await step('set_status', { lead_id: mallory, status: 'not_interested' }, { path: { lead_id: mallory }, body: { status: 'not_interested' } });
  return steps;
}

const sum = (steps: Step[], k: 'text' | 'json' | 'raw') => steps.reduce((n, s) => n + s[k], 0);
/** The session's bytes in each form as a share of the raw API JSON. */
export const sessionShares = (steps: Step[]) => ({ text: sum(steps, 'text') / sum(steps, 'raw'), json: sum(steps, 'json') / sum(steps, 'raw') });
const totals = (steps: Step[]): Cell[] => [sum(steps, 'text'), sum(steps, 'json'), sum(steps, 'raw')];
const shares = (steps: Step[]): Cell[] => {
  const rawTotal = sum(steps, 'raw');
  const pct = (n: number) => `${((100 * n) / rawTotal).toFixed(1)}%`;
  return [pct(sum(steps, 'text')), pct(sum(steps, 'json')), '100%'];
};
