import { Rng } from '../../../src/sandbox/rng.js';
import type { Store } from '../../../src/sandbox/store/store.js';
import { secretsIn } from './scan.js';
import type { Outcome, Session } from './session.js';

/* The mixed workload under faults, and the count of duplicates it may have made. */

/** Codes a read may end with when injected faults outlast the client's retries. */
export const FAULT_CODES = new Set(['upstream_error', 'network_error', 'timeout']);

type Op = { tool: string; args: Record<string, unknown>; kind: 'read' | 'create' | 'write'; marker?: string };

/** One call of the mixed workload: mostly reads (a sixth of them upstream), a third writes. */
function nextOp(rng: Rng, leads: readonly string[], tag: string, i: number): Op {
  const lead = rng.pick(leads);
  const r = rng.next();
  if (r < 0.12) return { tool: 'list_leads', args: { limit: rng.int(1, 30), unread: rng.chance(0.5) }, kind: 'read' };
  if (r < 0.24) return { tool: 'get_lead', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.32) return { tool: 'get_conversation', args: { lead_id: lead, limit: 5 }, kind: 'read' };
  if (r < 0.4) return { tool: 'list_tasks', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.48) return { tool: 'list_notes', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.52) return { tool: 'list_members', args: {}, kind: 'read' };
  if (r < 0.58) return { tool: 'list_meetings', args: { limit: 5 }, kind: 'read' };
  if (r < 0.62) return { tool: 'list_campaign_tags', args: {}, kind: 'read' };
  if (r < 0.66) return { tool: 'get_workspace', args: { include: ['counts'] }, kind: 'read' };
  if (r < 0.8) {
    const marker = `${tag}:task:${i}`;
    return { tool: 'create_task', args: { lead_id: lead, notes: marker, due_date: '2026-12-01' }, kind: 'create', marker };
  }
  if (r < 0.92) {
    const marker = `${tag}:note:${i}`;
    return { tool: 'create_note', args: { lead_id: lead, body: marker }, kind: 'create', marker };
  }
  if (r < 0.96) return { tool: 'mark_read', args: { lead_id: lead }, kind: 'write' };
  return { tool: 'set_priority', args: { lead_ids: [lead], priority: rng.chance(0.5) }, kind: 'write' };
}

export interface CreateRecord {
  tool: string;
  marker: string;
  lead: string;
  outcome: 'ok' | 'outcome_unknown';
  id?: string;
}

export interface WorkloadReport {
  planned: number;
  /** tools/call requests sent, repeats of failed reads included. */
  calls: number;
  ok: number;
  byCode: Record<string, number>;
  /** Answers that are neither a result nor an isError result of our envelope. */
  broken: string[];
  /** Tool errors the faults cannot explain (a read failing with not_found, a create with network_error…). */
  unexpected: string[];
  readsRepeated: number;
  readsFailedForGood: string[];
  creates: CreateRecord[];
  /** Key secrets found in answers (results, errors), by key name. */
  leaks: Record<string, number>;
  ms: number;
}

export interface WorkloadOptions {
  calls: number;
  parallel: number;
  seed: number;
  leads: readonly string[];
  /** Prefix of every marker, unique per run. */
  tag: string;
  /** Repeats of a read that failed on a fault, as an agent would, before calling it lost. */
  maxRepeats?: number;
}

/** Run the workload over one session with `parallel` calls in flight. */
export async function runWorkload(s: Session, o: WorkloadOptions): Promise<WorkloadReport> {
  const started = Date.now();
  const rng = Rng.derive(o.seed, o.tag);
  const ops = Array.from({ length: o.calls }, (_, i) => nextOp(rng, o.leads, o.tag, i));
  const rep: WorkloadReport = {
    planned: o.calls,
    calls: 0,
    ok: 0,
    byCode: {},
    broken: [],
    unexpected: [],
    readsRepeated: 0,
    readsFailedForGood: [],
    creates: [],
    leaks: {},
    ms: 0,
  };
  const send = async (op: Op): Promise<Outcome> => {
    rep.calls++;
    const out = await s.call(op.tool, op.args);
    for (const [key, n] of Object.entries(secretsIn(JSON.stringify(out)))) rep.leaks[key] = (rep.leaks[key] ?? 0) + n;
    if (out.kind === 'ok') rep.ok++;
    else if (out.kind === 'tool_error') rep.byCode[out.error.code] = (rep.byCode[out.error.code] ?? 0) + 1;
    else rep.broken.push(`${op.tool}: ${out.kind === 'bad_result' ? out.why : `${out.code} ${out.message}`}`);
    return out;
  };
  const runOne = async (op: Op) => {
    let out = await send(op);
    if (op.kind === 'read') {
      for (let n = 0; out.kind === 'tool_error' && FAULT_CODES.has(out.error.code) && n < (o.maxRepeats ?? 10); n++) {
        rep.readsRepeated++;
        out = await send(op);
      }
      if (out.kind === 'tool_error') {
        if (FAULT_CODES.has(out.error.code)) rep.readsFailedForGood.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code}`);
        else rep.unexpected.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code} ${out.error.message}`);
      }
      return;
    }
    if (out.kind === 'tool_error' && out.error.code !== 'outcome_unknown') {
      rep.unexpected.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code} ${out.error.message}`);
    }
    if (op.kind === 'create' && (out.kind === 'ok' || (out.kind === 'tool_error' && out.error.code === 'outcome_unknown'))) {
      const id = out.kind === 'ok' ? (out.result.structuredContent as { id?: string }).id : undefined;
      rep.creates.push({ tool: op.tool, marker: op.marker!, lead: op.args.lead_id as string, outcome: out.kind === 'ok' ? 'ok' : 'outcome_unknown', id });
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: o.parallel }, async () => {
      while (next < ops.length) await runOne(ops[next++]!);
    }),
  );
  rep.ms = Date.now() - started;
  return rep;
}

export interface DuplicateReport {
  /** Markers stored more than once: the duplicates, counted as extra records. */
  duplicates: number;
  /** A create answered ok whose record is missing, or stored under another id. */
  lostOrMismatched: string[];
  /** Records carrying a marker no call of this run sent. */
  strays: number;
  /** Creates reported outcome_unknown that did happen (once). */
  unknownApplied: number;
}

/**
 * A duplicate is a second task or note carrying the marker of one create call. Each
 * create call wrote a unique marker (task notes, note body), so counting markers in the
 * store counts how many records each call made.
 */
export function countDuplicates(store: Store, tag: string, creates: readonly CreateRecord[]): DuplicateReport {
  const stored = new Map<string, string[]>();
  const add = (text: string | null, id: string) => {
    if (!text?.startsWith(`${tag}:`)) return;
    stored.set(text, [...(stored.get(text) ?? []), id]);
  };
  for (const t of store.tasks.all()) add(t.notes, t.id);
  for (const n of store.notes.all()) add(n.body, n.id);
  const report: DuplicateReport = { duplicates: 0, lostOrMismatched: [], strays: 0, unknownApplied: 0 };
  for (const ids of stored.values()) report.duplicates += Math.max(0, ids.length - 1);
  const sent = new Set(creates.map((c) => c.marker));
  for (const marker of stored.keys()) if (!sent.has(marker)) report.strays++;
  for (const c of creates) {
    const ids = stored.get(c.marker) ?? [];
    if (c.outcome === 'ok' && (ids.length !== 1 || ids[0] !== c.id)) report.lostOrMismatched.push(`${c.marker}: answered ${c.id}, stored [${ids.join(', ')}]`);
    if (c.outcome === 'outcome_unknown' && ids.length === 1) report.unknownApplied++;
  }
  return report;
}
