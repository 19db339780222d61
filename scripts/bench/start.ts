/**
 * Start, memory, call latency and listing, against the floor, in one run: spawn to the first
 * answer, RSS after start and after 5,000 mixed calls, the latency a tool call adds to the API
 * request it sends, and a repeated tools/list, for our binary and for a minimal SDK v2 server
 * (the floor: 46 zod tools, one GET /v1/me at start, serveStdio, floor-server.mjs). Each
 * comparison alternates ours and the floor, so both see the same machine; the start, call and
 * listing figures are measured in both protocol eras (2025 handshake, 2026-07-28 per request).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { Agent, request } from 'undici';
import type { Era } from '../harness/http.js';
import { type Section, mcpSession, median, percentile, round, rssMiB, sandbox, UNMETERED } from './lib.js';

const SPAWNS = 7;
const CALLS = 5000;
/** Timed tool calls and listings per server and era. */
const N = 200;
const LISTINGS = 50;
const ERAS: readonly Era[] = ['legacy', 'modern'];
const WHO = ['ours', 'floor'] as const;

type Session = Awaited<ReturnType<typeof mcpSession>>;
type Who = (typeof WHO)[number];

async function calls(s: Session, leads: readonly { id: string }[]): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const lead = leads[i % leads.length]!.id;
    const [name, args] = i % 3 === 0 ? ['list_leads', { limit: 20 }] : i % 3 === 1 ? ['get_lead', { lead_id: lead }] : ['get_conversation', { lead_id: lead }];
    const r = await s.client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`call ${i} (${name}) failed`);
  }
}

const timed = async (into: number[], f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  into.push(performance.now() - t);
};

/** A bare tools/list: the SDK's listTools would also compile every output schema on the client side. */
const listAnswer = z.looseObject({ tools: z.array(z.unknown()) });

interface EraFigures {
  spawn: Record<Who, number[]>;
  rssStart: Record<Who, number | null>;
  direct: number[];
  call: Record<Who, number[]>;
  list: Record<Who, number[]>;
}

async function measureEra(sb: Awaited<ReturnType<typeof sandbox>>, era: Era, lead: string): Promise<EraFigures> {
  const f: EraFigures = {
    spawn: { ours: [], floor: [] },
    rssStart: { ours: null, floor: null },
    direct: [],
    call: { ours: [], floor: [] },
    list: { ours: [], floor: [] },
  };
  // A client pinned to 2026-07-28 sends server/discover to a disposable sibling process, then
  // starts the session's process without a request: its start ends at the first answer of that
  // process, a tools/list. A 2025 client's connect ends at the initialize answer.
  const first = (x: Session) => (era === 'modern' ? x.client.request({ method: 'tools/list' }, listAnswer) : Promise.resolve());
  for (let i = 0; i < SPAWNS; i++) {
    for (const who of WHO) {
      const t = performance.now();
      const s = await mcpSession(sb, { floor: who === 'floor', era });
      await first(s);
      f.spawn[who].push(performance.now() - t);
      await s.close();
    }
  }
  const s = { ours: await mcpSession(sb, { era }), floor: await mcpSession(sb, { floor: true, era }) };
  try {
    for (const who of WHO) await first(s[who]);
    await new Promise((r) => setTimeout(r, 500));
    for (const who of WHO) f.rssStart[who] = await rssMiB(s[who].pid);
    const dispatcher = new Agent({ connections: 1 });
    const direct = async () => {
      const r = await request(`${sb.baseUrl}/v1/workspaces/acme/leads/${lead}`, { headers: { authorization: `Bearer ${sb.keys.admin}` }, dispatcher });
      await r.body.json();
    };
    const call = (who: Who) => async () => {
      const r = await s[who].client.callTool({ name: 'get_lead', arguments: { lead_id: lead } });
      if (r.isError) throw new Error(`${who} get_lead failed: ${JSON.stringify(r.content)}`);
    };
    const list = (who: Who) => () => s[who].client.request({ method: 'tools/list' }, listAnswer);
    for (let i = 0; i < 20; i++) for (const g of [direct, call('ours'), call('floor'), list('ours'), list('floor')]) await g();
    for (let i = 0; i < N; i++) {
      await timed(f.direct, direct);
      for (const who of i % 2 ? WHO : [...WHO].reverse()) await timed(f.call[who], call(who));
    }
    for (let i = 0; i < LISTINGS; i++) for (const who of i % 2 ? WHO : [...WHO].reverse()) await timed(f.list[who], list(who));
    await dispatcher.close();
  } finally {
    await s.ours.close();
    await s.floor.close();
  }
  return f;
}

const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : round(a / b, 2));

/** The rows of each era's figures, and a warning for each target missed. */
function eraRows(eras: Partial<Record<Era, EraFigures>>): { rows: Section['rows']; warnings: string[] } {
  const rows: Section['rows'] = [];
  const warnings: string[] = [];
  const judge = (what: string, met: boolean) => {
    if (!met) warnings.push(`Target missed: ${what}.`);
    return met ? 'yes' : 'no';
  };
  for (const era of ERAS) {
    const f = eras[era]!;
    const name = era === 'modern' ? '2026-07-28' : '2025';
    const spawn = { ours: median(f.spawn.ours), floor: median(f.spawn.floor) };
    const direct = median(f.direct);
    const added = { ours: median(f.call.ours) - direct, floor: median(f.call.floor) - direct };
    const list = { ours: median(f.list.ours), floor: median(f.list.floor) };
    rows.push(
      [
        `${name}: spawn → first answer (ms, median)`,
        round(spawn.ours, 0),
        round(spawn.floor, 0),
        ratio(spawn.ours, spawn.floor),
        judge(`${name} start ≤ 1.2 × the floor`, spawn.ours <= 1.2 * spawn.floor),
      ],
      [
        `${name}: RSS after start (MiB)`,
        round(f.rssStart.ours ?? Number.NaN, 1),
        round(f.rssStart.floor ?? Number.NaN, 1),
        ratio(f.rssStart.ours, f.rssStart.floor),
        judge(`${name} RSS after start ≤ 85 MiB`, (f.rssStart.ours ?? Infinity) <= 85),
      ],
      [
        `${name}: get_lead, added to the direct request (${round(direct)} ms) (ms, p50)`,
        round(added.ours),
        round(added.floor),
        round(added.ours - added.floor),
        judge(`${name} added latency ≤ the floor's + 1.5 ms`, added.ours <= added.floor + 1.5),
      ],
      [
        `${name}: get_lead p95 (ms)`,
        round(percentile(f.call.ours, 95)),
        round(percentile(f.call.floor, 95)),
        ratio(percentile(f.call.ours, 95), percentile(f.call.floor, 95)),
        '—',
      ],
      [
        `${name}: repeated tools/list (ms, p50)`,
        round(list.ours),
        round(list.floor),
        ratio(list.ours, list.floor),
        judge(`${name} repeated tools/list ≤ 1.5 × the floor`, list.ours <= 1.5 * list.floor),
      ],
    );
  }
  return { rows, warnings };
}

export async function start(): Promise<Section[]> {
  const loadBefore = loadavg()[0]!;
  const startedAt = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const sb = await sandbox(UNMETERED);
  const leads = sb.store.sortedLeads('acme');
  const lead = leads.at(-1)!.id;
  const eras: Partial<Record<Era, EraFigures>> = {};
  const rssAfter: Record<Who, number | null> = { ours: null, floor: null };
  try {
    for (const era of ERAS) eras[era] = await measureEra(sb, era, lead);
    for (const who of WHO) {
      const s = await mcpSession(sb, { floor: who === 'floor' });
      await calls(s, leads);
      rssAfter[who] = await rssMiB(s.pid);
      await s.close();
    }
  } finally {
    await sb.close();
  }
  const loadAfter = loadavg()[0]!;
  const { rows, warnings } = eraRows(eras);
  rows.push([
    `RSS after ${CALLS} calls, 2025 (MiB)`,
    round(rssAfter.ours ?? Number.NaN, 1),
    round(rssAfter.floor ?? Number.NaN, 1),
    ratio(rssAfter.ours, rssAfter.floor),
    '—',
  ]);
  return [
    {
      title: 'Start, memory, calls and listing, against the floor',
      note: `${startedAt} UTC, load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (1 minute). Spawn of the built binary to its first answer (2025: initialize; 2026-07-28: the SDK client's server/discover on a disposable sibling process, then the session process's first tools/list, so two spawns), both including the server's GET /v1/me, median of ${SPAWNS}, interleaved with the floor: a minimal server on the SDK v2 with 46 zod tools, one GET /v1/me at start and serveStdio (scripts/bench/floor-server.mjs). Then one session of each: RSS 0.5 s after its first answer; ${N} get_lead calls of each, alternating, beside the same API request sent directly (the added latency is the median call less the direct median, the third column ours less the floor's); ${LISTINGS} repeated bare tools/list requests of each, alternating (the floor's list is 46 small tools, ours the published 46 with their output schemas). RSS after ${CALLS} calls over stdio (list_leads, get_lead, get_conversation in turn).`,
      columns: ['measure', 'reply-inbox-mcp', 'floor', 'ratio (difference for added ms)', 'met'],
      rows,
      warnings,
    },
  ];
}
