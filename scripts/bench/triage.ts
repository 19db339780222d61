/**
 * The triage job of the second agent trial, done the way the server's instructions tell an
 * agent: the 10 newest unread replies nobody answered, every thread read in one call, each
 * lead's status set (one batched call per status), 4 follow-up tasks, 2 notes, all marked
 * read in one call. Counted: calls, and the bytes the model reads in each form.
 */
import { type Section, UNMETERED, jsonBytes, mcpSession, sandbox, textBytes } from './lib.js';

type Result = Record<string, unknown>;
export type TriageCall = (name: string, args: Record<string, unknown>) => Promise<Result>;

/** The job's targets: calls (model turns) and bytes in each form. */
export const TRIAGE_TARGET = { calls: 12, bytes: 20_000 } as const;

export interface TriageStep {
  call: string;
  text: number;
  json: number;
}

export interface TriageRun {
  steps: TriageStep[];
  calls: number;
  text: number;
  json: number;
  /** Leads triaged, and how many each write reached. */
  leads: string[];
}

/** The status an agent gives a reply from what the service classified it as. */
const statusFor = (classification: unknown) =>
  classification === 'INTERESTED' ? 'interested' : classification === 'AUTOMATED' ? 'automated' : 'not_interested';

/** Run the job through `call` (any MCP client); every answer that is an error stops it. */
export async function triageJob(call: TriageCall): Promise<TriageRun> {
  const steps: TriageStep[] = [];
  const step = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    const text = ((r.content ?? []) as { text?: string }[])[0]?.text ?? '';
    if (r.isError) throw new Error(`triage: ${name} failed: ${text}`);
    steps.push({ call: `${name} ${JSON.stringify(args).slice(0, 90)}`, text: textBytes(r), json: jsonBytes(r) });
    return r.structuredContent as Record<string, unknown>;
  };
  const inbox = await step('list_leads', { unread: true, responded: false, status: ['interested', 'untagged'], limit: 10 });
  const rows = inbox.data as { id: string; classification?: string }[];
  const leads = rows.map((l) => l.id);
  await step('get_conversation', { lead_ids: leads });
  const byStatus = new Map<string, string[]>();
  for (const l of rows) byStatus.set(statusFor(l.classification), [...(byStatus.get(statusFor(l.classification)) ?? []), l.id]);
  for (const [status, ids] of byStatus) await step('set_status', { lead_ids: ids, status });
  const followUps = [...(byStatus.get('interested') ?? []), ...leads].filter((id, i, all) => all.indexOf(id) === i).slice(0, 4);
  for (const [i, lead] of followUps.entries()) {
    await step('create_task', { lead_id: lead, due_date: `2026-12-0${i + 1}`, notes: 'Follow up: send pricing and two meeting times.' });
  }
  for (const lead of leads.slice(0, 2)) await step('create_note', { lead_id: lead, body: 'Triaged: replied with interest; follow-up task set.' });
  await step('mark_read', { lead_ids: leads });
  const sum = (k: 'text' | 'json') => steps.reduce((n, s) => n + s[k], 0);
  return { steps, calls: steps.length, text: sum('text'), json: sum('json'), leads };
}

/** npm run bench -- --only triage: the job against the built binary over stdio. */
export async function triage(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const s = await mcpSession(sb);
  try {
    const run = await triageJob(async (name, args) => (await s.client.callTool({ name, arguments: args })) as Result);
    return [
      {
        title: 'Triage: the 10 newest unread replies, done as the instructions say',
        note: `list_leads (unread, not responded, interested or untagged, limit 10), get_conversation with lead_ids, set_status with lead_ids once per status, 4 create_task, 2 create_note, mark_read with lead_ids. Bytes the model reads: the text, and JSON.stringify(structuredContent) as Claude Code shows it. Target: ≤ ${TRIAGE_TARGET.calls} calls and ≤ ${TRIAGE_TARGET.bytes.toLocaleString('en-US')} bytes in each form.`,
        columns: ['call', 'text bytes', 'structuredContent bytes'],
        rows: [...run.steps.map((x) => [x.call, x.text, x.json]), [`job total: ${run.calls} calls, ${run.leads.length} leads`, run.text, run.json]],
      },
    ];
  } finally {
    await s.close();
    await sb.close();
  }
}
