/**
 * Made-up keys against HTTP bearer mode (a phase of `npm run soak`, or alone:
 * `node --import tsx scripts/soak-keys.ts --keys 3000`): many initializes, each with a
 * well-formed `rik_live_…` key the API does not know, and the server's RSS before and
 * after. Run once with the per-address limit off (as if each key came from its own
 * address: what the server holds per refused key) and once with it on (what one address
 * gets through). Needs dist/ (npm run build).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandbox } from '../src/sandbox/index.js';
import { INITIALIZE, type HttpBinary, mcpHeaders, raw, startHttpBinary } from './harness/http.js';
import { TEST_NOW } from './harness/sandbox.js';

/** The growth the issue allows for 3,000 made-up keys. */
export const RSS_BUDGET_MB = 100;

const madeUpKey = (i: number) => `rik_live_${i.toString(36).padStart(8, 'k')}_${i.toString(16).padStart(32, '0')}`;

/** Resident memory of a process in MB, as ps reports it. */
function rssMb(pid: number): number {
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) / 1024
  );
}

async function initializeAll(bin: HttpBinary, from: number, count: number, parallel: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const key = madeUpKey(next++);
      const r = await raw(bin.url, { headers: mcpHeaders({ authorization: `Bearer ${key}` }), body: INITIALIZE }).then(
        (x) => String(x.status),
        () => 'error',
      );
      statuses[r] = (statuses[r] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

export async function madeUpKeysRun(keys: number, parallel = 16) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 20 });
  const open = await startHttpBinary(['--base-url', sandbox.baseUrl, '--auth-failures-per-minute', '0']);
  const limited = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const pid = open.child.pid!;
    // Warm up first: code paths, pools and caches that any first requests fill are not per key.
    await initializeAll(open, 0, 100, parallel);
    const before = rssMb(pid);
    const started = Date.now();
    const answers = await initializeAll(open, 100, keys, parallel);
    const after = rssMb(pid);
    const held = JSON.parse((await raw(open.url.replace(/\/mcp$/, '/healthz'), { method: 'GET' })).body) as { keys: number; sessions: number };
    const oneAddress = await initializeAll(limited, 0, Math.min(keys, 200), 4);
    return {
      made_up_keys: keys,
      ms: Date.now() - started,
      answers,
      rss_before_mb: Math.round(before),
      rss_after_mb: Math.round(after),
      rss_growth_mb: Math.round((after - before) * 10) / 10,
      rss_budget_mb: RSS_BUDGET_MB,
      keys_held_after: held.keys,
      sessions_after: held.sessions,
      one_address_limited: oneAddress,
    };
  } finally {
    await open.stop('SIGKILL');
    await limited.stop('SIGKILL');
    await sandbox.close();
  }
}

/** What breaks the run: memory over budget, a key kept, or a made-up key let in. */
export function keysBroken(r: Awaited<ReturnType<typeof madeUpKeysRun>>): number {
  const admitted = Object.entries(r.answers)
    .filter(([status]) => status !== '401')
    .reduce((n, [, c]) => n + c, 0);
  return (r.rss_growth_mb >= RSS_BUDGET_MB ? 1 : 0) + r.keys_held_after + r.sessions_after + admitted;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { keys: { type: 'string', default: '3000' }, parallel: { type: 'string', default: '16' } } });
  const r = await madeUpKeysRun(Number(values.keys), Number(values.parallel));
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(keysBroken(r) === 0 ? 0 : 1);
}
