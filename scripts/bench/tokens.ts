/** Tokens: what the model reads (bytes, tokens ≈ bytes/4) against the raw API JSON for the same data. */
import { type Section, mcpSession, sandbox, UNMETERED } from './lib.js';

const textBytes = (r: Record<string, unknown>) =>
  ((r.content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').reduce((n, c) => n + Buffer.byteLength(c.text ?? ''), 0);

export async function tokens(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const s = await mcpSession(sb);
  const raw = async (path: string) => {
    const r = await fetch(`${sb.baseUrl}${path}`, { headers: { authorization: `Bearer ${sb.keys.admin}` } });
    return Buffer.byteLength(await r.text());
  };
  const { tools } = await s.client.listTools();
  const visible = (list: typeof tools) => Buffer.byteLength(JSON.stringify(list.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
  const triage = await mcpSession(sb, { args: ['--toolsets', 'workspaces,leads,conversations,templates'] });
  const triageTools = (await triage.client.listTools()).tools;
  await triage.close();

  const page = await s.client.callTool({ name: 'list_leads', arguments: { limit: 20 } });
  const leadId = (page.structuredContent as { data: { id: string }[] }).data[0]!.id;
  const full = await s.client.callTool({ name: 'list_leads', arguments: { limit: 20, view: 'full' } });
  const conv = await s.client.callTool({ name: 'get_conversation', arguments: { lead_id: leadId } });
  const long = sb.store.leadByEmail.get('acme\u0000lena.long@chatty.example')!;
  const convLong = await s.client.callTool({ name: 'get_conversation', arguments: { lead_id: long.id } });
  const rows: [string, number, number | null][] = [
    [`tool list, all ${tools.length} tools (name + description + input schema)`, visible(tools), null],
    [`tool list, triage toolsets only (${triageTools.length} tools: workspaces, leads, conversations, templates)`, visible(triageTools), null],
    ['list_leads, 20 leads, default view', textBytes(page), await raw('/v1/workspaces/acme/leads?limit=20')],
    ['list_leads, 20 leads, view=full', textBytes(full), await raw('/v1/workspaces/acme/leads?limit=20')],
    ['get_conversation, default, newest lead', textBytes(conv), await raw(`/v1/workspaces/acme/leads/${leadId}/messages?limit=50`)],
    ['get_conversation, default, a 230-message thread (50 shown)', textBytes(convLong), await raw(`/v1/workspaces/acme/leads/${long.id}/messages?limit=50`)],
  ];
  await s.close();
  await sb.close();
  return [
    {
      title: 'Tokens: what the model reads',
      note: 'Bytes of model-visible text (tokens estimated as bytes/4) against the raw API JSON for the same data. A ratio under 1 is context saved; fencing of outside text is included.',
      columns: ['what', 'bytes', '≈ tokens', 'raw API JSON bytes', 'ratio'],
      rows: rows.map(([what, bytes, rawBytes]) => [what, bytes, Math.round(bytes / 4), rawBytes, rawBytes ? Number((bytes / rawBytes).toFixed(2)) : null]),
    },
  ];
}
