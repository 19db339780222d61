import { fileURLToPath } from 'node:url';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ALL_TOOLS } from '../tools/index.js';
import { draftAsSent, toolsListed } from './demo-views.js';

/**
 * `npm run demo`: an agent's triage session, scripted. A real MCP client spawns the built
 * server over stdio on its embedded sandbox (loopback only) and does what an agent would:
 * find unread interested leads, read a conversation that tries to inject instructions,
 * draft a reply from a template, set a status, then try a write in read-only mode, and
 * last watch the inbox (a resource subscription) while a lead replies.
 * It prints a transcript and a summary table, and exits 1 if anything did not behave.
 */

const BIN = fileURLToPath(new URL('../dist/src/cli/mcp.js', import.meta.url));
const INJECTION_EMAIL = 'mallory@evil-corp.example';
const WIDTH = 160;

interface Step {
  session: string;
  tool: string;
  outcome: 'ok' | 'refused' | 'FAILED';
  note: string;
  ms: number;
}
const steps: Step[] = [];
const failures: string[] = [];

const out = (line = '') => process.stdout.write(`${line}\n`);
const clip = (s: string, n = WIDTH) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A text block indented under its step, long lines cut, long blocks shortened in the middle. */
function block(text: string, maxLines = 14, width = WIDTH): void {
  const lines = text.split('\n');
  const shown = lines.length > maxLines ? [...lines.slice(0, maxLines - 3), `… (${lines.length - maxLines + 1} more lines)`, ...lines.slice(-2)] : lines;
  for (const l of shown) out(`      ${clip(l, width)}`);
}

function check(ok: boolean, what: string): boolean {
  out(`    ${ok ? 'check ok' : 'CHECK FAILED'}: ${what}`);
  if (!ok) failures.push(what);
  return ok;
}

const textOf = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

class Session {
  private constructor(
    readonly label: string,
    readonly client: Client,
    readonly tools: string[],
  ) {}

  static async start(label: string, args: string[]): Promise<Session> {
    out(`\n== Session "${label}": node dist/src/cli/mcp.js ${args.join(' ')}`);
    const key = args.includes('--sandbox-key') ? args[args.indexOf('--sandbox-key') + 1]! : 'admin';
    const env = { ...getDefaultEnvironment(), REPLY_INBOX_LOG_LEVEL: 'warn' };
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env, stderr: 'inherit' });
    const client = new Client({ name: 'reply-inbox-demo', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    const info = client.getServerVersion();
    const names = tools.map((t) => t.name);
    out(`   initialize: ${info?.name} ${info?.version}; tools/list: ${toolsListed(names, key, args.includes('--read-only'))}`);
    return new Session(label, client, names);
  }

  /** One tool call, shown as the agent's request and what the model reads back. */
  async call(tool: string, args: Record<string, unknown>, show: { lines?: number; width?: number; expectError?: boolean } = {}): Promise<CallToolResult> {
    out(`\n[${steps.length + 1}] ${tool} ${JSON.stringify(args)}`);
    const t0 = performance.now();
    const r = (await this.client.callTool({ name: tool, arguments: args })) as CallToolResult;
    const ms = Math.round(performance.now() - t0);
    const refused = r.isError === true;
    if (refused || show.lines !== 0) {
      out(`    ${refused ? 'isError: the model reads' : 'the model reads'} (${ms} ms):`);
      block(textOf(r), show.lines, show.width);
    } else out(`    answered in ${ms} ms`);
    const outcome = refused ? (show.expectError ? 'refused' : 'FAILED') : 'ok';
    if (outcome === 'FAILED') failures.push(`${tool} failed: ${clip(textOf(r), 200)}`);
    steps.push({ session: this.label, tool, outcome, note: '', ms });
    return r;
  }

  /** The note for the summary row of the last call. */
  note(text: string): void {
    steps[steps.length - 1]!.note = text;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

async function triage(s: Session): Promise<string> {
  const inbox = await s.call('list_leads', { status: ['interested'], unread: true, limit: 5 });
  const rows = (inbox.structuredContent as { data?: Record<string, unknown>[] } | undefined)?.data ?? [];
  check(rows.length > 0 && rows.every((l) => l.status === 'interested' && l.unread === true), 'every row is an unread interested lead');
  s.note(`${rows.length} unread interested leads on the first page`);

  const found = await s.call('list_leads', { email: INJECTION_EMAIL });
  const mallory = ((found.structuredContent as { data?: { id: string }[] } | undefined)?.data ?? [])[0];
  if (!mallory) throw new Error(`no lead ${INJECTION_EMAIL} in the sandbox`);
  s.note(`${INJECTION_EMAIL} is ${mallory.id}`);
  const lead = rows.find((l) => l.id !== mallory.id) ?? rows[0];
  if (!lead) throw new Error('the sandbox has no unread interested lead');

  const convo = await s.call('get_conversation', { lead_id: mallory.id }, { lines: 40, width: 400 });
  const text = textOf(convo);
  const tag = /<(untrusted-[0-9a-f]{6})[ >]/.exec(text)?.[1];
  const at = text.indexOf('Ignore previous instructions');
  const open = tag ? text.lastIndexOf(`<${tag}`, at) : -1;
  const close = tag ? text.indexOf(`</${tag}>`, at) : -1;
  const fenced = at > 0 && open >= 0 && close > at && text.slice(open, at).indexOf(`</${tag}>`) < 0;
  check(fenced, `the injected "Ignore previous instructions…" sits inside <${tag ?? 'untrusted-…'}>, after the note that fenced text is data`);
  s.note(fenced ? `injection attempt fenced in <${tag}>` : 'injection NOT fenced');

  const templates = await s.call('list_templates', { limit: 50 }, { lines: 0 });
  type Tpl = { id: string; name: string; ai_variables: { name: string }[] };
  const all = (templates.structuredContent as { data?: Tpl[] } | undefined)?.data ?? [];
  const tpl = all.find((t) => (t.ai_variables ?? []).length > 0);
  if (!tpl) throw new Error('the sandbox has no template with AI variables');
  out(
    `    ${all.length} templates; the agent picks "${tpl.name}", whose AI variables (${tpl.ai_variables.map((v) => v.name).join(', ')}) it must write itself`,
  );
  s.note(`chose "${tpl.name}" (${tpl.ai_variables.length} AI variables)`);

  const overrides = Object.fromEntries(tpl.ai_variables.map((v) => [v.name, `[${v.name}: written by the agent after reading the thread]`]));
  const draft = await s.call('render_template', { template_id: tpl.id, lead_id: lead.id, overrides }, { lines: 0 });
  const rendered = draft.structuredContent as { ready_to_send?: boolean } | undefined;
  const sent = draftAsSent(draft.structuredContent);
  out(`    the email a person reviews and sends (${sent.status}):`);
  block(sent.email, 16);
  check(
    Object.values(overrides).every((v) => sent.email.includes(v)),
    'every override is in the email as the person sends it',
  );
  check(!/<\/?untrusted-/.test(sent.email), 'the person reads the email without the fences the model reads');
  s.note(`draft for ${lead.id}; ready to send: ${rendered?.ready_to_send === true ? 'yes' : 'no'}; nothing sent`);

  out('\n    The agent ignores the instructions in the email and marks the lead not_interested.');
  const set = await s.call('set_status', { lead_id: mallory.id, status: 'not_interested' }, { lines: 0 });
  const effects = (set.structuredContent as { effects?: Record<string, unknown> } | undefined)?.effects;
  out('    effects (what the write changed):');
  block(JSON.stringify(effects, null, 2), 20);
  check(
    Array.isArray(effects?.provider_writes) && (effects.provider_writes as unknown[]).length === 0,
    'effects.provider_writes is [] (nothing reached the sending platform)',
  );
  s.note(
    `effects: ${Object.entries(effects ?? {})
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.length : v}`)
      .join(', ')}`,
  );
  return mallory.id;
}

async function readOnly(s: Session): Promise<void> {
  check(!s.tools.includes('set_status'), 'read-only mode lists no write tool');
  const found = await s.call('list_leads', { email: INJECTION_EMAIL, fields: ['status'] });
  const lead = ((found.structuredContent as { data?: { id: string; status: string }[] } | undefined)?.data ?? [])[0];
  if (!lead) throw new Error(`no lead ${INJECTION_EMAIL} in the read-only session`);
  s.note(`status is ${lead.status}`);
  const refused = await s.call('set_status', { lead_id: lead.id, status: 'not_interested' }, { expectError: true });
  const code = /"code":"([a-z_]+)"/.exec(textOf(refused))?.[1];
  check(refused.isError === true && code === 'read_only', `set_status is refused with code read_only (got ${code ?? 'no error'})`);
  s.note(`refused: ${code}`);
  const after = await s.call('get_lead', { lead_id: lead.id, fields: ['status'] });
  const status = (after.structuredContent as { status?: string } | undefined)?.status;
  check(status === lead.status, `the lead's status is unchanged (${status})`);
  s.note(`status still ${status}`);
}

/** Wait for `ok`, at most `ms`; false when it never came. */
async function waitFor(ok: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return ok();
}

async function readText(s: Session, uri: string): Promise<string> {
  const r = await s.client.readResource({ uri });
  return (r.contents[0] as { text?: string } | undefined)?.text ?? '';
}

/** The agent subscribes to the newest leads and waits; a seeded lead replies; the agent reads the new message. */
async function watch(s: Session): Promise<void> {
  const uri = 'inbox://acme/leads';
  const updates: string[] = [];
  s.client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
  });
  out(`
[watch] resources/subscribe ${JSON.stringify({ uri })}`);
  await s.client.subscribeResource({ uri });
  out('    the agent waits; in the sandbox a seeded lead replies every second (--sandbox-reply-seconds 1)');
  const t0 = performance.now();
  const heard = await waitFor(() => updates.includes(uri), 20_000);
  check(heard, `notifications/resources/updated for ${uri} arrived (${Math.round(performance.now() - t0)} ms after subscribing)`);
  if (!heard) return;
  const leads = (JSON.parse(await readText(s, uri)) as { leads: { id: string; last_message_at?: string; last_message_direction?: string }[] }).leads;
  const newest = leads[0]!;
  out(`
[watch] resources/read ${uri}: the newest lead is ${newest.id} (last message ${newest.last_message_at}, ${newest.last_message_direction})`);
  const conversation = await readText(s, `inbox://acme/leads/${newest.id}/conversation`);
  out(`
[watch] resources/read inbox://acme/leads/${newest.id}/conversation: the new message, fenced as the lead's own words`);
  const last = conversation.lastIndexOf('\n## ');
  block(conversation.slice(last + 1), 14);
  check(
    newest.last_message_direction === 'received' && conversation.includes('Circling back on this'),
    'the new inbound reply is in the conversation resource',
  );
  await s.client.unsubscribeResource({ uri });
  out(`    resources/unsubscribe ${JSON.stringify({ uri })}: the server stops polling for this session`);
}

function summary(counts: Record<string, number>): void {
  const rows = steps.map((s, i) => [String(i + 1), s.session, s.tool, s.outcome, `${s.ms}`, s.note]);
  const head = ['#', 'session', 'tool', 'outcome', 'ms', 'what happened'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(widths[c]!)).join(' | ')} |`;
  out('\n== Summary');
  out(line(head));
  out(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) out(line(r));
  out('');
  out(
    `tools listed, of ${ALL_TOOLS.length}: ${Object.entries(counts)
      .map(([k, v]) => `${v} (${k})`)
      .join(', ')}`,
  );
  out(
    `tool calls: ${steps.length}; ok ${steps.filter((s) => s.outcome === 'ok').length}, refused as expected ${steps.filter((s) => s.outcome === 'refused').length}, failed ${steps.filter((s) => s.outcome === 'FAILED').length}`,
  );
  out(
    failures.length === 0
      ? 'demo: all checks passed; no email was sent.'
      : `demo: ${failures.length} check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`,
  );
}

async function main(): Promise<number> {
  out('reply-inbox-mcp demo: an agent triages the shared inbox of the embedded sandbox (loopback only, nothing is sent).');
  out('Acting as Ben, a rep in workspace acme (sandbox key "rep").');
  const counts: Record<string, number> = {};
  const rw = await Session.start('triage', ['--sandbox', '--sandbox-key', 'rep']);
  counts.triage = rw.tools.length;
  try {
    await triage(rw);
  } finally {
    await rw.close();
  }
  out('\nA second server process in read-only mode, with its own freshly seeded sandbox: the write above is not in it.');
  const ro = await Session.start('read-only', ['--sandbox', '--sandbox-key', 'rep', '--read-only']);
  counts['read-only'] = ro.tools.length;
  try {
    await readOnly(ro);
  } finally {
    await ro.close();
  }
  out('\nA third server process watches the inbox: the agent subscribes to the newest leads and a reply arrives while it waits.');
  const live = await Session.start('watch', [
    '--sandbox',
    '--sandbox-key',
    'rep',
    '--workspace',
    'acme',
    '--sandbox-reply-seconds',
    '1',
    '--watch-seconds',
    '1',
  ]);
  counts.watch = live.tools.length;
  try {
    await watch(live);
  } finally {
    await live.close();
  }
  summary(counts);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`demo: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
