/**
 * Limiter benchmark: bucket utilisation of a sustained read burst, the 429s it met, and
 * the median overhead per request of the client (and of its limiter alone) over a bare
 * undici request to the same sandbox.
 *
 *   node --import tsx scripts/bench/limiter.ts
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { ReplyInboxClient } from '../../src/client/index.js';
import { Limiter, SPEC_FIGURES } from '../../src/client/limiter.js';
import { startSandbox } from '../../src/sandbox/index.js';

const WINDOW_MS = 1000;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const fmt = (n: number) => n.toFixed(2);

async function utilisation(): Promise<void> {
  const sb = await startSandbox({ port: 0, logLevel: 'silent', rateWindowMs: WINDOW_MS, leads: 50 });
  let rejected = 0;
  const client = new ReplyInboxClient({
    apiKey: sb.keys.admin,
    baseUrl: sb.baseUrl,
    onLimiterEvent: (e) => {
      if (e.type === 'rate_limited' || e.type === 'too_many_concurrent') rejected++;
    },
  });
  await client.me();
  const limit = client.limiterState().buckets.find((b) => b.bucket === 'read')!.limit;
  // Start at a fresh window (the me call spent one token in the previous one); ten windows' worth.
  await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 5);
  const burst = limit * 10;
  const t0 = Date.now();
  const results = await Promise.all(
    Array.from({ length: burst }, () => client.call('list_members', { path: { workspace: 'acme' } }).then((r) => r.attempts)),
  );
  const t1 = Date.now();
  const served = results.length;
  const windows = Math.floor(t1 / WINDOW_MS) - Math.floor(t0 / WINDOW_MS) + 1;
  const allowed = windows * limit;
  const retries = results.reduce((a, n) => a + n - 1, 0);
  console.log(`sustained read burst: ${burst} calls at ${limit} reads per ${WINDOW_MS} ms window`);
  console.log(`  served ${served} in ${t1 - t0} ms over ${windows} windows; allowed ${allowed}; utilisation ${fmt((served / allowed) * 100)}%`);
  console.log(`  429 responses seen: ${rejected}; retries: ${retries}`);
  await client.close();
  await sb.close();
}

async function overhead(): Promise<void> {
  const sb = await startSandbox({ port: 0, logLevel: 'silent', leads: 50, bucketLimits: { read: 10_000_000 } });
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const url = `${sb.baseUrl}/v1/workspaces/acme/members`;
  const headers = { authorization: `Bearer ${sb.keys.admin}`, accept: 'application/json' };
  const bare = async () => {
    const t = performance.now();
    const res = await request(url, { dispatcher: agent, headers });
    JSON.parse(await res.body.text());
    return performance.now() - t;
  };
  const stock = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, fastYield: false });
  const fast = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, fastYield: true });
  const viaClient = (c: ReplyInboxClient) => async () => {
    const t = performance.now();
    await c.call('list_members', { path: { workspace: 'acme' } });
    return performance.now() - t;
  };
  const runs = { bare, stock: viaClient(stock), fast: viaClient(fast) };
  const times: Record<keyof typeof runs, number[]> = { bare: [], stock: [], fast: [] };
  for (const f of Object.values(runs)) for (let i = 0; i < 50; i++) await f();
  // Interleaved, one at a time, so each request sees the same server and connection state.
  for (let i = 0; i < 400; i++) for (const [k, f] of Object.entries(runs)) times[k as keyof typeof runs].push(await f());
  const b = median(times.bare);
  console.log(`per-request median over ${times.bare.length} sequential requests (list_members, keep-alive):`);
  console.log(`  bare undici ${fmt(b)} ms`);
  console.log(`  client, stock bottleneck yields (setTimeout 0): ${fmt(median(times.stock))} ms (overhead ${fmt(median(times.stock) - b)} ms)`);
  console.log(`  client, setImmediate yields (default): ${fmt(median(times.fast))} ms (overhead ${fmt(median(times.fast) - b)} ms)`);
  await Promise.all([stock.close(), fast.close(), agent.close()]);
  await sb.close();
}

/** The limiter alone, no HTTP: one read job through its bucket and the concurrency cap. */
async function limiterOnly(): Promise<void> {
  for (const fastYield of [false, true]) {
    const lim = new Limiter({ figures: { ...SPEC_FIGURES, read: 1e9 }, refillMarginMs: 0, fallbackWindowMs: 60_000, fastYield });
    const ctl = new AbortController();
    const ts: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = performance.now();
      await lim.run(['read'], ctl.signal, async () => ({ value: 1, settlement: { kind: 'not_sent' as const } }));
      ts.push(performance.now() - t);
    }
    console.log(`  limiter alone (read bucket + concurrency cap), ${fastYield ? 'setImmediate yields' : 'stock yields'}: median ${fmt(median(ts.slice(50)))} ms per job`);
    await lim.close();
  }
}

await utilisation();
await overhead();
await limiterOnly();
