/**
 * What the model reads: bytes (and tokens ≈ bytes/4) of the tool list, of a default
 * 20-lead list_leads page and of a default get_conversation, next to the raw API JSON for
 * the same data. Usage: node --import tsx scripts/bench/tokens.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';

const BIN = new URL('../../dist/src/cli/mcp.js', import.meta.url).pathname;

const sandbox = await startSandbox({ port: 0, logLevel: 'silent', now: '2026-11-20T12:00:00Z', rateLimits: false });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [BIN, '--log-level', 'silent'],
  env: { ...process.env, REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sandbox.baseUrl, REPLY_INBOX_WORKSPACE: 'acme' } as Record<string, string>,
});
const client = new Client({ name: 'bench-tokens', version: '1' });
await client.connect(transport);
const raw = async (path: string) => {
  const r = await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}` } });
  return (await r.text()).length;
};
const textBytes = (r: Record<string, unknown>) =>
  ((r.content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').reduce((n, c) => n + Buffer.byteLength(c.text ?? ''), 0);

const { tools } = await client.listTools();
const toolList = Buffer.byteLength(JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
const toolListWithOutput = Buffer.byteLength(JSON.stringify(tools));

const page = await client.callTool({ name: 'list_leads', arguments: { limit: 20 } });
const rawPage = await raw('/v1/workspaces/acme/leads?limit=20');
const leadId = ((page.structuredContent as { data: { id: string }[] }).data[0] as { id: string }).id;
const conv = await client.callTool({ name: 'get_conversation', arguments: { lead_id: leadId } });
const rawConv = await raw(`/v1/workspaces/acme/leads/${leadId}/messages?limit=50`);
const longLead = sandbox.store.leadByEmail.get('acme\u0000lena.long@chatty.example')!;
const convLong = await client.callTool({ name: 'get_conversation', arguments: { lead_id: longLead.id } });
const rawConvLong = await raw(`/v1/workspaces/acme/leads/${longLead.id}/messages?limit=50`);

await client.close();
await sandbox.close();

const rows: [string, number, number | null][] = [
  [`tool list, ${tools.length} tools (name + description + input schema)`, toolList, null],
  ['tool list including output schemas and annotations', toolListWithOutput, null],
  ['list_leads, 20 leads, default view (text content)', textBytes(page), rawPage],
  ['get_conversation, default (text content), newest lead', textBytes(conv), rawConv],
  ['get_conversation, default, a 230-message thread (50 shown)', textBytes(convLong), rawConvLong],
];
process.stdout.write('| what the model reads | bytes | ≈ tokens | raw API JSON bytes | ratio |\n|---|---:|---:|---:|---:|\n');
for (const [what, bytes, rawBytes] of rows) {
  process.stdout.write(`| ${what} | ${bytes} | ${Math.round(bytes / 4)} | ${rawBytes ?? '—'} | ${rawBytes ? (bytes / rawBytes).toFixed(2) : '—'} |\n`);
}
