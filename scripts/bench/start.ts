/**
 * Start and memory: spawn to the initialize answer, RSS after start and after 5,000 mixed calls,
 * for our binary and, in the same run, for a minimal SDK server (the floor: 46 zod tools, one
 * GET /v1/me at start, floor-server.mjs).
 */
import { performance } from 'node:perf_hooks';
import { type Section, mcpSession, median, round, rssMiB, sandbox, UNMETERED } from './lib.js';

const SPAWNS = 7;
const CALLS = 5000;

type Session = Awaited<ReturnType<typeof mcpSession>>;

async function calls(s: Session, leads: readonly { id: string }[]): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const lead = leads[i % leads.length]!.id;
    const [name, args] = i % 3 === 0 ? ['list_leads', { limit: 20 }] : i % 3 === 1 ? ['get_lead', { lead_id: lead }] : ['get_conversation', { lead_id: lead }];
    const r = await s.client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`call ${i} (${name}) failed`);
  }
}

export async function start(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const times = { ours: [] as number[], floor: [] as number[] };
  // Interleaved, so both see the same machine state.
  for (let i = 0; i < SPAWNS; i++) {
    for (const who of ['ours', 'floor'] as const) {
      const t = performance.now();
      const s = await mcpSession(sb, { floor: who === 'floor' });
      times[who].push(performance.now() - t);
      await s.close();
    }
  }
  const leads = sb.store.sortedLeads('acme');
  const rss: Record<'ours' | 'floor', { start: number | null; after: number | null }> = {
    ours: { start: null, after: null },
    floor: { start: null, after: null },
  };
  for (const who of ['ours', 'floor'] as const) {
    const s = await mcpSession(sb, { floor: who === 'floor' });
    rss[who].start = await rssMiB(s.pid);
    await calls(s, leads);
    rss[who].after = await rssMiB(s.pid);
    await s.close();
  }
  await sb.close();
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : round(a / b, 2));
  const ms = { ours: median(times.ours), floor: median(times.floor) };
  return [
    {
      title: 'Start and memory, against the floor',
      note: `Spawn of the built binary to the answer of initialize (connecting includes initialize and the server's GET /v1/me), median of ${SPAWNS}, interleaved with the floor: a minimal server on the same SDK with 46 zod tools and one GET /v1/me (scripts/bench/floor-server.mjs). RSS after start and after ${CALLS} tool calls over stdio (list_leads, get_lead, get_conversation in turn).`,
      columns: ['measure', 'reply-inbox-mcp', 'floor', 'ratio'],
      rows: [
        ['spawn → initialize answered (ms, median)', round(ms.ours, 0), round(ms.floor, 0), ratio(ms.ours, ms.floor)],
        ['RSS after start (MiB)', round(rss.ours.start ?? Number.NaN, 1), round(rss.floor.start ?? Number.NaN, 1), ratio(rss.ours.start, rss.floor.start)],
        [
          `RSS after ${CALLS} calls (MiB)`,
          round(rss.ours.after ?? Number.NaN, 1),
          round(rss.floor.after ?? Number.NaN, 1),
          ratio(rss.ours.after, rss.floor.after),
        ],
      ],
    },
  ];
}
