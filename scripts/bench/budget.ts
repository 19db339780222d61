/**
 * Budget: a sustained workload of three times a bucket, against a sandbox with a short
 * rate window. Requests served ÷ requests the bucket allowed over the run, and the 429s
 * the sandbox answered, for our client, a bare client that sends as fast as it can, and a
 * client throttled to a fixed interval of window ÷ limit.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { ReplyInboxClient } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { RATE_LIMITS } from '../../src/api/enums.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import { type Section, median, round, sandbox, windowStart } from './lib.js';

const WINDOW_MS = 1000;
const RUNS = 3;
const KEY_ID = 'key_admin001';

type Bucket = 'read' | 'write' | 'upstream';
interface Call {
  bucket: Bucket;
  name: EndpointName;
  path: Record<string, string>;
  query?: Record<string, unknown>;
  method: 'GET' | 'POST';
  url: string;
}

function calls(sb: Sandbox, bucket: Bucket, n: number): Call[] {
  const leads = sb.store.sortedLeads('acme');
  return Array.from({ length: n }, (_, i): Call => {
    if (bucket === 'read') return { bucket, name: 'list_members', path: { workspace: 'acme' }, method: 'GET', url: '/v1/workspaces/acme/members' };
    if (bucket === 'upstream')
      return {
        bucket,
        name: 'get_workspace',
        path: { workspace: 'acme' },
        query: { include: ['counts'] },
        method: 'GET',
        url: '/v1/workspaces/acme?include=counts',
      };
    const lead = leads[i % leads.length]!.id;
    return { bucket, name: 'mark_read', path: { workspace: 'acme', lead_id: lead }, method: 'POST', url: `/v1/workspaces/acme/leads/${lead}/read` };
  });
}

/** Three times each bucket, interleaved, as an agent mixing work would send it. */
function workload(sb: Sandbox, kind: Bucket | 'mix'): Call[] {
  if (kind !== 'mix') return calls(sb, kind, 3 * RATE_LIMITS[kind]);
  const parts = (['read', 'write', 'upstream'] as const).map((b) => calls(sb, b, 3 * RATE_LIMITS[b]));
  const out: Call[] = [];
  for (let i = 0; parts.some((p) => i < p.length); i++) for (const p of parts) if (i < p.length) out.push(p[i]!);
  return out;
}

interface Outcome {
  served: Record<Bucket, number>;
  windows: number;
  refused: number;
}

async function ours(sb: Sandbox, work: Call[]): Promise<Omit<Outcome, 'windows' | 'refused'>> {
  const client = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  await client.me();
  await windowStart(WINDOW_MS);
  const served: Record<Bucket, number> = { read: 0, write: 0, upstream: 0 };
  await Promise.all(
    work.map((c) =>
      client.request(endpoint(c.name), { path: c.path, query: c.query }).then(
        () => served[c.bucket]++,
        () => undefined,
      ),
    ),
  );
  await client.close();
  return { served };
}

async function raw(sb: Sandbox, c: Call, dispatcher: Agent): Promise<boolean> {
  const r = await request(`${sb.baseUrl}${c.url}`, { method: c.method, headers: { authorization: `Bearer ${sb.keys.admin}` }, dispatcher });
  await r.body.dump();
  return r.statusCode < 300;
}

async function bare(sb: Sandbox, work: Call[]) {
  const dispatcher = new Agent({ connections: 64 });
  await windowStart(WINDOW_MS);
  const served: Record<Bucket, number> = { read: 0, write: 0, upstream: 0 };
  await Promise.all(work.map((c) => raw(sb, c, dispatcher).then((ok) => ok && served[c.bucket]++)));
  await dispatcher.close();
  return { served };
}

/** Each bucket's calls sent at a fixed interval of window ÷ limit, without waiting for answers. */
async function interval(sb: Sandbox, work: Call[]) {
  const dispatcher = new Agent({ connections: 16 });
  await windowStart(WINDOW_MS);
  const served: Record<Bucket, number> = { read: 0, write: 0, upstream: 0 };
  const lanes = (['read', 'write', 'upstream'] as const).map(async (b) => {
    const mine = work.filter((c) => c.bucket === b);
    const gap = WINDOW_MS / RATE_LIMITS[b];
    const t0 = Date.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < mine.length; i++) {
      const wait = t0 + i * gap - Date.now();
      if (wait > 0) await sleep(wait);
      pending.push(raw(sb, mine[i]!, dispatcher).then((ok) => ok && served[b]++));
    }
    await Promise.all(pending);
  });
  await Promise.all(lanes);
  await dispatcher.close();
  return { served };
}

const STRATEGIES = { 'reply-inbox client': ours, 'bare, as fast as it can': bare, 'fixed interval (window ÷ limit)': interval } as const;

async function once(kind: Bucket | 'mix', strategy: keyof typeof STRATEGIES) {
  const sb = await sandbox({ rateWindowMs: WINDOW_MS });
  const work = workload(sb, kind);
  const t0 = Date.now();
  const { served } = await STRATEGIES[strategy](sb, work);
  // Count from the window the run started in to the window its last answer came in.
  const windows = Math.floor(Date.now() / WINDOW_MS) - Math.floor((t0 + (WINDOW_MS - (t0 % WINDOW_MS)) + 10) / WINDOW_MS) + 1;
  const r = sb.limits.refusals(KEY_ID);
  await sb.close();
  const buckets: readonly Bucket[] = kind === 'mix' ? ['read', 'write', 'upstream'] : [kind];
  const allowed = buckets.reduce((a, b) => a + windows * RATE_LIMITS[b], 0);
  const total = buckets.reduce((a, b) => a + served[b], 0);
  return { utilisation: total / allowed, refused: r.rate_limited + r.too_many_concurrent, served: total, sent: work.length, windows };
}

export async function budget(): Promise<Section[]> {
  const rows = [];
  for (const kind of ['read', 'write', 'upstream', 'mix'] as const) {
    for (const strategy of Object.keys(STRATEGIES) as (keyof typeof STRATEGIES)[]) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(kind, strategy));
      rows.push([
        kind,
        strategy,
        runs[0]!.sent,
        round(median(runs.map((r) => r.served)), 0),
        `${round((median(runs.map((r) => r.served)) / runs[0]!.sent) * 100, 1)}%`,
        round(median(runs.map((r) => r.windows)), 0),
        `${round(median(runs.map((r) => r.utilisation)) * 100, 1)}%`,
        runs.reduce((a, r) => a + r.refused, 0),
      ]);
    }
  }
  return [
    {
      title: 'Budget: rate buckets spent',
      note: `Three times each bucket (read ${RATE_LIMITS.read}, write ${RATE_LIMITS.write}, upstream ${RATE_LIMITS.upstream} per window; mix = all three at once) with a ${WINDOW_MS} ms window. Utilisation = requests served ÷ requests the buckets allowed in the windows the run spanned (median of ${RUNS} runs); 429s = answered by the sandbox over all ${RUNS} runs. Every 429 is a model turn wasted; every unused token is throughput lost.`,
      columns: ['workload', 'strategy', 'sent', 'served', 'served ÷ sent', 'windows', 'utilisation', '429s'],
      rows,
    },
  ];
}
