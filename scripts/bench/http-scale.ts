/**
 * Hosted use: what one HTTP instance holds and serves, against the floor (the smallest
 * stateful Streamable HTTP server on the same SDK, scripts/bench/floor-http-server.mjs), in
 * the same run, against one sandbox whose buckets are out of reach. Both serve 100 keys
 * issued by the sandbox (made-up keys are refused). Each round starts both servers afresh; the
 * targets are judged on the median over the rounds of each round's ours-against-floor figure,
 * and the server's CPU time per call is given beside the latencies, since it holds on a loaded machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { MCP_BIN, ROOT, type Section, UNMETERED, cpuMs, median, percentile, round, rssMiB, sandbox } from './lib.js';

const KEYS = 100;
const SESSIONS = 1_000;
const CLIENTS = 50;
const CALL_SECONDS = 10;
/** Seconds of the same calls before the measured ones, on the same sessions: the servers are measured warm. */
const WARM_SECONDS = 3;
/** Rounds of the whole measure (BENCH_ROUNDS, default 3): the targets are judged on their medians. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS) || 3);
const FLOOR_HTTP = `${ROOT}scripts/bench/floor-http-server.mjs`;

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
}

async function startServer(name: string, args: string[], env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  // Read the first line, and keep reading so that the child never writes into a closed pipe.
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened`)));
  });
  return { name, url: (JSON.parse(out.split('\n')[0]!) as { url: string }).url, child };
}

// Idle connections are dropped after 1 s, well before a server's keep-alive timeout (5 s in Node):
// on a loaded machine a later timer would send on a connection the server already closed.
const dispatcher = new Agent({ connections: CLIENTS * 2, keepAliveMaxTimeout: 1_000 });

/** The era of a call: a 2025 session's, or a 2026-07-28 request that carries its own envelope. */
type Era = 'legacy' | 'modern';
const ERAS: readonly Era[] = ['legacy', 'modern'];
const MODERN = '2026-07-28';

/** A tools/call as a 2026-07-28 client sends it: the envelope in _meta and the headers the spec asks for, no session. */
function modernCall(id: number, leadId: string) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_lead', arguments: { lead_id: leadId }, _meta } };
}

/** One JSON-RPC POST; the session id it was given and the body (JSON or an SSE stream of one message). */
async function post(url: string, key: string, message: object, session?: string) {
  const m = message as { method?: string; params?: { name?: string; _meta?: object } };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${key}`,
    ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    ...(m.params?._meta ? { 'mcp-protocol-version': MODERN, 'mcp-method': m.method!, ...(m.params.name ? { 'mcp-name': m.params.name } : {}) } : {}),
  };
  const r = await request(url, { method: 'POST', headers, body: JSON.stringify(message), dispatcher });
  const text = await r.body.text();
  return { status: r.statusCode, session: r.headers['mcp-session-id'] as string | undefined, text };
}

/** An idle session as a client leaves it: initialized, its resource templates listed (as many clients do on connect), then nothing. */
async function openSession(url: string, key: string): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  const r = await post(url, key, init);
  if (r.status !== 200 || !r.session) throw new Error(`initialize answered ${r.status}: ${r.text.slice(0, 200)}`);
  await post(url, key, { jsonrpc: '2.0', method: 'notifications/initialized' }, r.session);
  // The floor serves no resources and answers method not found: one round trip either way.
  await post(url, key, { jsonrpc: '2.0', id: 2, method: 'resources/templates/list', params: {} }, r.session);
  return r.session;
}

async function inParallel<T>(count: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

const settle = () => new Promise((r) => setTimeout(r, 1_000));

/** Sessions i = k + KEYS·j: key k's j-th session, so every key holds SESSIONS / KEYS. */
async function memory(s: Server, keys: string[]) {
  const before = (await rssMiB(s.child.pid))!;
  const first = await inParallel(KEYS, 20, (i) => openSession(s.url, keys[i]!));
  await settle();
  const at100 = (await rssMiB(s.child.pid))!;
  const rest = await inParallel(SESSIONS - KEYS, 20, (i) => openSession(s.url, keys[i % KEYS]!));
  await settle();
  const at1000 = (await rssMiB(s.child.pid))!;
  return { before, at100, at1000, sessions: [...first, ...rest] };
}

/** CLIENTS sessions (or, in 2026-07-28, clients on as many keys) calling one tool as fast as answered for `seconds`: latencies and failures. */
async function callFor(s: Server, keys: string[], sessions: string[], leadId: string, seconds: number, era: Era) {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  let id = 10;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (performance.now() < until) {
        const t = performance.now();
        const r =
          era === 'modern'
            ? await post(s.url, keys[c]!, modernCall(id++, leadId))
            : await post(
                s.url,
                keys[c]!,
                { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_lead', arguments: { lead_id: leadId } } },
                sessions[c],
              );
        latencies.push(performance.now() - t);
        if (r.status !== 200 || r.text.includes('"isError":true') || r.text.includes('"error":{')) failed++;
      }
    }),
  );
  return { latencies, failed };
}

/**
 * The calls of one server: WARM_SECONDS of them first, while V8 compiles the call path (their p99
 * is kept apart: a cold instance's first seconds), then CALL_SECONDS measured, CPU included.
 */
async function calls(s: Server, keys: string[], sessions: string[], leadId: string, era: Era) {
  const warm = await callFor(s, keys, sessions, leadId, WARM_SECONDS, era);
  const cpuBefore = await cpuMs(s.child.pid);
  const { latencies, failed } = await callFor(s, keys, sessions, leadId, CALL_SECONDS, era);
  const cpu = (await cpuMs(s.child.pid)) ?? Number.NaN;
  return {
    latencies,
    failed: failed + warm.failed,
    warmP99: percentile(warm.latencies, 99),
    cpuPerCall: (cpu - (cpuBefore ?? Number.NaN)) / Math.max(1, latencies.length),
  };
}

/** One server's calls in one era and round. */
interface CallFigures {
  rate: number;
  p50: number;
  p99: number;
  /** p99 of the warm-up's calls: what a cold instance's first seconds cost. */
  warmP99: number;
  /** The server's own CPU time per call (user and system): what a call costs whatever the machine's load. */
  cpuPerCall: number;
  calls: number;
  failed: number;
}

/** One server's figures in one round: its 2025 sessions' memory, and its calls in each era. */
interface Measured {
  mem: { before: number; at100: number; at1000: number };
  perSessionKiB: number;
  era: Record<Era, CallFigures>;
}

/** One round: both servers started fresh, measured one after the other (the order alternating by round). */
interface Round {
  ours: Measured;
  floor: Measured;
  load: number[];
}

export async function httpScale(): Promise<Section[]> {
  const loadBefore = loadavg();
  const sb = await sandbox({ ...UNMETERED });
  const keys = Array.from({ length: KEYS }, () => sb.control.issueKey('rep'));
  const leadId = [...sb.store.leads.all()].find((l) => l.workspace === 'acme')!.id;
  const rounds: Round[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) rounds.push(await measureRound(sb.baseUrl, keys, leadId, r % 2 === 1));
  } finally {
    await sb.close();
  }
  return report(rounds, loadBefore);
}

async function measureRound(baseUrl: string, keys: string[], leadId: string, floorFirst: boolean): Promise<Round> {
  const ours = await startServer(
    'reply-inbox-mcp',
    [
      MCP_BIN,
      '--http',
      '127.0.0.1:0',
      '--base-url',
      baseUrl,
      '--log-level',
      'silent',
      '--max-sessions',
      String(SESSIONS + CLIENTS),
      '--max-sessions-per-key',
      String(SESSIONS / KEYS + 1),
      '--auth-failures-per-minute',
      '0',
      '--workspace',
      'acme',
    ],
    {},
  );
  const floor = await startServer('floor (SDK only)', [FLOOR_HTTP], { REPLY_INBOX_BASE_URL: baseUrl });
  const order = floorFirst ? [floor, ours] : [ours, floor];
  try {
    const mem = new Map<Server, Awaited<ReturnType<typeof memory>>>();
    for (const s of order) mem.set(s, await memory(s, keys));
    // The 2025 sessions' calls, then 2026-07-28 requests on the same keys, each server in turn.
    const res = new Map<string, Awaited<ReturnType<typeof calls>>>();
    for (const era of ERAS) for (const s of order) res.set(`${s.name} ${era}`, await calls(s, keys, mem.get(s)!.sessions, leadId, era));
    const figures = (s: Server, era: Era): CallFigures => {
      const { latencies, failed, cpuPerCall, warmP99 } = res.get(`${s.name} ${era}`)!;
      return {
        rate: latencies.length / CALL_SECONDS,
        p50: median(latencies),
        p99: percentile(latencies, 99),
        warmP99,
        cpuPerCall,
        calls: latencies.length,
        failed,
      };
    };
    const measured = (s: Server): Measured => {
      const m = mem.get(s)!;
      return {
        mem: m,
        perSessionKiB: ((m.at1000 - m.at100) * 1024) / (SESSIONS - KEYS),
        era: { legacy: figures(s, 'legacy'), modern: figures(s, 'modern') },
      };
    };
    return { ours: measured(ours), floor: measured(floor), load: loadavg() };
  } finally {
    for (const s of [ours, floor]) s.child.kill('SIGKILL');
  }
}

const ratios = (r: Round) => {
  const of = (era: Era) => {
    const [o, f] = [r.ours.era[era], r.floor.era[era]];
    return { rate: o.rate / f.rate, p50Added: o.p50 - f.p50, p99Added: o.p99 - f.p99, cpu: o.cpuPerCall / f.cpuPerCall };
  };
  return { memory: r.ours.perSessionKiB / r.floor.perSessionKiB, legacy: of('legacy'), modern: of('modern') };
};
type Ratios = ReturnType<typeof ratios>;
const ERA_NAME: Record<Era, string> = { legacy: '2025 sessions', modern: '2026-07-28 per request' };

function report(rounds: Round[], loadBefore: number[]): Section[] {
  const each = rounds.map(ratios);
  const mid = (f: (x: Ratios) => number) => median(each.map(f));
  const loads = rounds.map((r) => r.load[0]!);
  const loadAfter = loadavg();
  const load = `load average ${loadBefore[0]!.toFixed(1)} before, ${loads.map((l) => l.toFixed(1)).join(', ')} after each round (1-minute; ${loadAfter[1]!.toFixed(1)} over 5 minutes at the end)`;
  const quiet = Math.max(loadBefore[0]!, ...loads) < 2;
  type Target = readonly [string, (x: Ratios) => number, ((v: number) => boolean) | null];
  const targets: Target[] = [
    ['2025: per idle session, ours ÷ floor (target ≤ 1.5)', (x) => x.memory, (v) => v <= 1.5],
    ...ERAS.flatMap((era): Target[] => [
      [`${ERA_NAME[era]}: tool calls a second, ours ÷ floor (target ≥ 0.7)`, (x) => x[era].rate, (v) => v >= 0.7],
      [`${ERA_NAME[era]}: p99 added, ours − floor in ms (target ≤ 20)`, (x) => x[era].p99Added, (v) => v <= 20],
      [`${ERA_NAME[era]}: p50 added, ours − floor in ms (no target)`, (x) => x[era].p50Added, null],
      [`${ERA_NAME[era]}: server CPU per call, ours ÷ floor (no target; holds at any load)`, (x) => x[era].cpu, null],
    ]),
  ];
  const warnings = [
    `Measured at ${load} on this machine; the bench client, the sandbox and both servers share its cores, so a loaded machine slows both servers and the ratios are what compare.`,
    ...(quiet
      ? []
      : [
          'The machine was loaded (1-minute load average 2 or more on 2 cores): the latencies are mostly its queue, and the added latency says little; the memory figures and the CPU per call hold at any load.',
        ]),
    ...targets
      .filter(([, f, met]) => met !== null && !met(mid(f)))
      .map(([what, f]) => `Target missed: ${what} = ${round(mid(f))} (median of ${rounds.length} rounds).`),
  ];
  const servers = (r: Round) =>
    [
      ['reply-inbox-mcp', r.ours],
      ['floor (SDK only)', r.floor],
    ] as const;
  const memoryRows = rounds.flatMap((r, i) =>
    servers(r).map(([name, x]) => [i + 1, name, round(x.mem.before, 1), round(x.mem.at100, 1), round(x.mem.at1000, 1), round(x.perSessionKiB, 1)]),
  );
  const callRows = rounds.flatMap((r, i) =>
    ERAS.flatMap((era) =>
      servers(r).map(([name, x]) => {
        const c = x.era[era];
        return [i + 1, ERA_NAME[era], name, round(c.rate, 0), round(c.p50), round(c.p99), round(c.warmP99), round(c.cpuPerCall, 2), c.calls, c.failed];
      }),
    ),
  );
  return [
    {
      title: 'Hosted use: one HTTP instance against the SDK floor, memory of 2025 sessions',
      note: `Key mode (each client sends its own key), ${KEYS} keys issued by the sandbox; ${rounds.length} rounds, each starting both servers afresh and measuring one after the other (the first alternating by round). The floor (scripts/bench/floor-http-server.mjs) is the smallest server on the SDK v2 serving both eras: stateful sessions for 2025 clients, createMcpHandler for 2026-07-28 requests. Resident set after ${KEYS} idle 2025 sessions (one per key) and after ${SESSIONS} (${SESSIONS / KEYS} per key); per idle session = the growth between the two ÷ ${SESSIONS - KEYS}. Each session, once initialized, lists the resource templates, as many clients do when they connect (the floor has none and answers method not found). A 2026-07-28 client holds no session, so it has no memory figure.`,
      columns: ['round', 'server', 'RSS at start (MiB)', `RSS, ${KEYS} sessions (MiB)`, `RSS, ${SESSIONS} sessions (MiB)`, 'per idle session (KiB)'],
      rows: memoryRows,
    },
    {
      title: 'Hosted use: calls in both eras',
      note: `${CLIENTS} clients on ${CLIENTS} keys each calling get_lead as fast as answered, for ${WARM_SECONDS} s to warm the server (V8 compiles the call path; the p99 of those calls is shown apart, and not judged), then ${CALL_SECONDS} s measured, per server, per era, per round: first on ${CLIENTS} of the 2025 sessions above, then as 2026-07-28 requests (the envelope in _meta, Mcp-Method and Mcp-Name headers, no session), which each server answers with a server built for the request. The floor's tool sends the same API request. Sandbox buckets out of reach.`,
      columns: [
        'round',
        'era',
        'server',
        'calls/s',
        'p50 (ms)',
        'p99 (ms)',
        `p99 of the first ${WARM_SECONDS} s, cold (ms)`,
        'CPU per call (ms)',
        'calls',
        'failed',
      ],
      rows: callRows,
      warnings,
    },
    {
      title: 'Hosted use: the targets',
      note: `Issue 22's targets for one instance, in both eras: the median over ${rounds.length} rounds of each round's figure (ours against the floor of the same round), and each round's. ${load}.`,
      columns: ['figure', 'median', ...rounds.map((_, i) => `round ${i + 1}`), 'met'],
      rows: targets.map(([what, f, met]) => [what, round(mid(f)), ...each.map((x) => round(f(x))), met === null ? '—' : met(mid(f)) ? 'yes' : 'no']),
    },
  ];
}
