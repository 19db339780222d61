/**
 * Overhead: an MCP tools/call over stdio against a direct undici request to the same
 * sandbox (rate limits off, so only our code is measured), and the client's limiter alone.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ReplyInboxClient } from '../../src/client/index.js';
import { Limiter, SPEC_FIGURES, type Settlement } from '../../src/client/limiter/limiter.js';
import { type Section, mcpSession, median, percentile, round, sandbox, UNMETERED } from './lib.js';

const N = 200;

type Sandbox = Awaited<ReturnType<typeof sandbox>>;
type Direct = (path: string) => () => Promise<void>;

const time = async (into: number[], f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  into.push(performance.now() - t);
};

export async function overhead(): Promise<Section[]> {
  const sb = await sandbox(UNMETERED);
  const dispatcher = new Agent({ connections: 1 });
  const headers = { authorization: `Bearer ${sb.keys.admin}` };
  const direct: Direct = (path) => async () => {
    const r = await request(`${sb.baseUrl}${path}`, { headers, dispatcher });
    await r.body.json();
  };
  const rows = await toolCalls(sb, direct);
  const client = await clientCalls(sb, direct);
  const runs = await limiterRuns();
  await dispatcher.close();
  await sb.close();
  return [
    {
      title: 'Overhead: an MCP tool call against a direct API request',
      note: `Median and p95 over ${N} calls each, interleaved, against one sandbox whose buckets are out of reach (metered, never throttling). The added milliseconds are what the server adds to every tool call (JSON-RPC over stdio, validation, the limiter, shaping and fencing); the model's own latency dwarfs them.`,
      columns: ['call', 'direct p50 (ms)', 'direct p95 (ms)', 'MCP p50 (ms)', 'MCP p95 (ms)', 'added p50 (ms)', 'ratio'],
      rows,
    },
    {
      title: 'Overhead: the client and its rate limiter',
      note: 'list_members through ReplyInboxClient (bucket reservoir + concurrency cap on bottleneck) against the same request with bare undici.',
      columns: ['path', 'p50 (ms)', 'p95 (ms)', 'added p50 (ms)'],
      rows: [
        ['bare undici', round(median(client.bare)), round(percentile(client.bare, 95)), 0],
        ['ReplyInboxClient (as shipped)', round(median(client.ours)), round(percentile(client.ours, 95)), round(median(client.ours) - median(client.bare))],
        [
          'ReplyInboxClient with stock bottleneck yields',
          round(median(client.stock)),
          round(percentile(client.stock, 95)),
          round(median(client.stock) - median(client.bare)),
        ],
        [`Limiter.run, no-op exchange, tokens free (${20 * N} runs)`, round(median(runs), 4), round(percentile(runs, 95), 4), round(median(runs), 4)],
      ],
    },
  ];
}

/** Three tools over stdio against the same request sent directly, interleaved. */
async function toolCalls(sb: Sandbox, direct: Direct): Promise<Section['rows']> {
  const s = await mcpSession(sb);
  const lead = sb.store.sortedLeads('acme').at(-1)!.id;
  const viaMcp = (name: string, args: Record<string, unknown>) => async () => {
    const r = await s.client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  };
  const cases = [
    ['get_lead', direct(`/v1/workspaces/acme/leads/${lead}`), viaMcp('get_lead', { lead_id: lead })],
    ['list_leads (20)', direct('/v1/workspaces/acme/leads?limit=20'), viaMcp('list_leads', { limit: 20 })],
    ['get_conversation', direct(`/v1/workspaces/acme/leads/${lead}/messages?limit=50&order=desc`), viaMcp('get_conversation', { lead_id: lead })],
  ] as const;
  const rows = [];
  for (const [name, api, tool] of cases) {
    const a: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < 20; i++) {
      await api();
      await tool();
    }
    // Interleaved, so both see the same sandbox and machine state: the ratio is measured in one run.
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      await api();
      a.push(performance.now() - t);
      t = performance.now();
      await tool();
      m.push(performance.now() - t);
    }
    rows.push([
      name,
      round(median(a)),
      round(percentile(a, 95)),
      round(median(m)),
      round(percentile(m, 95)),
      round(median(m) - median(a)),
      round(median(m) / median(a), 1),
    ]);
  }
  await s.close();
  return rows;
}

/**
 * The client's own cost per call: the rate limiter's queue steps, over bare undici, with
 * bottleneck's stock setTimeout(0) yields and with ours (setImmediate, src/client/limiter/fast-yield.ts).
 */
async function clientCalls(sb: Sandbox, direct: Direct): Promise<{ bare: number[]; ours: number[]; stock: number[] }> {
  const fast = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  const stock = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent', fastYield: false });
  const bare: number[] = [];
  const ours: number[] = [];
  const stockTimes: number[] = [];
  for (let i = 0; i < N; i++) {
    await time(bare, direct('/v1/workspaces/acme/members'));
    await time(ours, () => fast.call('list_members', { path: { workspace: 'acme' } }));
    await time(stockTimes, () => stock.call('list_members', { path: { workspace: 'acme' } }));
  }
  await fast.close();
  await stock.close();
  return { bare, ours, stock: stockTimes };
}

/** The limiter alone: run() around an exchange that answers at once, tokens always free. */
async function limiterRuns(): Promise<number[]> {
  const limiter = new Limiter({ figures: { ...SPEC_FIGURES, read: 1_000_000_000 }, refillMarginMs: 50, fallbackWindowMs: 60_000, fastYield: true });
  const answered: Settlement = {
    kind: 'response',
    status: 200,
    code: undefined,
    info: { limit: undefined, remaining: undefined, resetMs: undefined, bucket: undefined, retryAfter: undefined },
  };
  const noop = async () => ({ value: 1, settlement: answered });
  const never = new AbortController().signal;
  const runs: number[] = [];
  for (let i = 0; i < 20 * N; i++) await time(runs, () => limiter.run(['read'], never, noop));
  await limiter.close();
  return runs;
}
