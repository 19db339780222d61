/** Start: time from spawn to the initialize answer, and memory after start and after 1,000 calls. */
import { performance } from 'node:perf_hooks';
import { type Section, mcpSession, median, round, rssMiB, sandbox, UNMETERED } from './lib.js';

const SPAWNS = 5;
const CALLS = 1000;

export async function start(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const times: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t = performance.now();
    const s = await mcpSession(sb);
    times.push(performance.now() - t);
    await s.close();
  }
  const s = await mcpSession(sb);
  const afterStart = await rssMiB(s.pid);
  const leads = sb.store.sortedLeads('acme');
  for (let i = 0; i < CALLS; i++) {
    const lead = leads[i % leads.length]!.id;
    const r = i % 3 === 0 ? await s.client.callTool({ name: 'list_leads', arguments: { limit: 20 } }) : i % 3 === 1 ? await s.client.callTool({ name: 'get_lead', arguments: { lead_id: lead } }) : await s.client.callTool({ name: 'get_conversation', arguments: { lead_id: lead } });
    if (r.isError) throw new Error(`call ${i} failed`);
  }
  const afterCalls = await rssMiB(s.pid);
  await s.close();
  await sb.close();
  return [
    {
      title: 'Start and memory',
      note: `Spawn of the built binary to the answer of initialize (connecting includes initialize and the server's GET /v1/me), median of ${SPAWNS}; RSS of the server process after start and after ${CALLS} tool calls (list_leads, get_lead, get_conversation in turn).`,
      columns: ['measure', 'value'],
      rows: [
        ['spawn → initialize answered (ms, median)', round(median(times), 0)],
        ['RSS after start (MiB)', afterStart === null ? null : round(afterStart, 1)],
        [`RSS after ${CALLS} calls (MiB)`, afterCalls === null ? null : round(afterCalls, 1)],
      ],
    },
  ];
}
