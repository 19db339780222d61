import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { defangTags } from '../../src/mcp/view/fence.js';
import { htmlToText } from '../../src/api/text.js';
import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { connectHttp, startHttpBinary } from '../harness/http.js';
import { TEST_NOW } from '../harness/sandbox.js';
import { firstText } from '../harness/reliability/helpers.js';

/* Item 1 of the second attack: the fence check and the HTML-to-text step on hostile text, alone and through the server. */

const SIZE = 100_000;
/** `<` then a run of whitespace (ASCII, non-breaking, em spaces), repeated to the size. */
const spaces = (size: number) => `<${' \u00a0\u2003\t'.repeat(size)}`.slice(0, size);

/** The hostile inputs of the issue, each of `size` characters. */
export function hostileInputs(size = SIZE): Record<string, string> {
  return {
    lt_then_spaces: spaces(size),
    all_lt: '<'.repeat(size),
    untrusted_lookalikes: '< /untrusted'.repeat(Math.ceil(size / 12)).slice(0, size),
    // Issue 31 finding 11: tags of look-alike characters, each folded before the check (˂, an ideographic space, ∕, fullwidth letters).
    folded_lookalikes: '\u02C2\u3000\u2215\uFF55\uFF4E\uFF54\uFF52\uFF55\uFF53\uFF54\uFF45\uFF44 '.repeat(Math.ceil(size / 13)).slice(0, size),
    lt_spaces_runs: `${spaces(size / 10)}x`.repeat(10),
  };
}

const msOf = (f: () => unknown) => {
  const t = performance.now();
  f();
  return Math.round((performance.now() - t) * 10) / 10;
};

/** Milliseconds per input for each step. */
export function regexTimings(size = SIZE) {
  const out: Record<string, { fence_ms: number; html_to_text_ms: number }> = {};
  for (const [name, text] of Object.entries(hostileInputs(size)))
    out[name] = { fence_ms: msOf(() => defangTags(text)), html_to_text_ms: msOf(() => htmlToText(text)) };
  return { chars: size, per_input: out };
}

/** A call's time, and another key's ping time started while it runs. */
async function timed(call: () => Promise<unknown>, other: Client) {
  const t = Date.now();
  const running = call().then(
    (r) => ((r as CallToolResult).isError ? (/"code":"([a-z_]+)"/.exec(firstText(r as CallToolResult))?.[1] ?? 'error') : 'ok'),
    () => 'protocol_error',
  );
  await new Promise((r) => setTimeout(r, 5));
  const p = Date.now();
  await other.ping();
  const pingMs = Date.now() - p;
  const answer = await running;
  return { answer, call_ms: Date.now() - t, other_key_ping_ms: pingMs };
}

/** A 60 KB hostile email body read whole, and a 20,000-character lead name in the default list_leads, over HTTP. */
export async function regexServerRun() {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 60 });
  const bin = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const leads = sandbox.store.sortedLeads('acme');
    const newest = leads.at(-1)!;
    const reader = leads.at(-2)!;
    const message = sandbox.store.conversation(reader).find((m) => m.direction === 'inbound') ?? sandbox.store.conversation(reader)[0]!;
    message.body_text = spaces(60_000);
    message.body_html = '<'.repeat(60_000);
    newest.first_name = spaces(20_000);
    const admin = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`);
    const rep = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.rep}`);
    const body = await timed(
      () => admin.callTool({ name: 'get_conversation', arguments: { workspace: 'acme', lead_id: reader.id, message_id: message.id } }),
      rep,
    );
    const html = await timed(
      () => admin.callTool({ name: 'get_conversation', arguments: { workspace: 'acme', lead_id: reader.id, message_id: message.id, format: 'html' } }),
      rep,
    );
    const list = await timed(() => admin.callTool({ name: 'list_leads', arguments: { workspace: 'acme' } }), rep);
    await admin.close();
    await rep.close();
    return { body_60kb_message_id: body, body_60kb_html: html, list_leads_20k_name: list };
  } finally {
    await bin.stop('SIGKILL');
    await sandbox.close();
  }
}
