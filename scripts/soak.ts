/**
 * The long reliability run (`npm run soak`): the fault workload of
 * test/reliability/faults.test.ts and the fuzz of test/reliability/fuzz.test.ts, ten
 * times larger and more, the same workload behind a gateway that answers 5xx or cuts the
 * connection after the API applied a create, made-up keys against HTTP bearer mode (the
 * server's RSS growth, scripts/soak-keys.ts), calls to an upstream-bucket tool with the spec's
 * buckets (none may outlive a 60 s client timeout), the second attack's items 1, 2, 3 and 7
 * (scripts/soak/index.ts: slow regexes, a session burst, endless refused bodies, subscription
 * churn), then one JSON line of counts on stdout. Exit status 1 when any invariant broke (a
 * crash, a duplicate, a leaked secret, an unclean answer, another key locked out).
 *
 *   npm run soak -- --calls 20000 --parallel 16 --fuzz-runs 400 --seed 7 --applied-calls 3000
 *   npm run soak -- --only attack --size 100000 --burst 150 --churn-ms 10000
 */
import { parseArgs } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { SANDBOX_KEYS, type Sandbox, startSandbox } from '../src/sandbox/index.js';
import { SPECIAL_EMAILS } from '../src/sandbox/seed/leads.js';
import { TOOL_ENDPOINTS } from '../src/api/endpoints.js';
import { type GatewayFault, startGateway } from './harness/gateway.js';
import { TEST_NOW } from './harness/sandbox.js';
import { keysBroken, madeUpKeysRun } from './soak-keys.js';
import { ATTACK_OPTIONS, attackBroken, attackOptions, attackRun } from './soak/index.js';
import { countDuplicates, firstText, fuzzTools, runWorkload, secretsIn, startRelay, startSession } from './harness/reliability/helpers.js';

/** The parts of the run, in order; `--only attack,keys` runs some of them. */
const PARTS = ['deadline', 'faults', 'fuzz', 'applied', 'keys', 'attack'] as const;
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    parallel: { type: 'string', default: '16' },
    'fuzz-runs': { type: 'string', default: '400' },
    'applied-calls': { type: 'string', default: '3000' },
    'made-up-keys': { type: 'string', default: '3000' },
    seed: { type: 'string', default: '7' },
    faults: { type: 'string', default: 'upstream_error=0.3,reset=0.1,latency_ms=1' },
    'deadline-calls': { type: 'string', default: '300' },
    only: { type: 'string', default: PARTS.join(',') },
    ...ATTACK_OPTIONS,
  },
});
const only = new Set(values.only.split(','));
const calls = Number(values.calls);
const parallel = Number(values.parallel);
const fuzzRuns = Number(values['fuzz-runs']);
const appliedCalls = Number(values['applied-calls']);
const seed = Number(values.seed);
const deadlineCalls = Number(values['deadline-calls']);
const log = (line: string) => process.stderr.write(`soak: ${line}\n`);
const BIG = { read: 1_000_000, write: 1_000_000, upstream: 1_000_000, thread: 1_000_000 };

/** The leads a write workload works: 200 active ones of acme, none of the seeded special cases. */
function workloadLeads(sandbox: Sandbox): string[] {
  const special = new Set<string>(Object.values(SPECIAL_EMAILS));
  return sandbox.store.leads
    .inGroup('acme')
    .filter((l) => l.state === 'active' && !special.has(l.email))
    .slice(0, 200)
    .map((l) => l.id);
}

async function faultRun() {
  const sandbox = await startSandbox({
    port: 0,
    now: TEST_NOW,
    logLevel: 'silent',
    leads: 500,
    seed,
    faults: values.faults,
    rateWindowMs: 1000,
    bucketLimits: BIG,
  });
  const s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], {
    REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
    REPLY_INBOX_BASE_URL: sandbox.baseUrl,
  });
  const leads = workloadLeads(sandbox);
  const tag = `soak-${Date.now()}`;
  log(`fault workload: ${calls} calls, ${parallel} in parallel, faults ${values.faults}`);
  const report = await runWorkload(s, { calls, parallel, seed, leads, tag });
  const alive = s.alive() && (await s.client.listTools()).tools.length === TOOL_ENDPOINTS.length;
  const dups = countDuplicates(sandbox.store, tag, report.creates);
  const leaks = { ...report.leaks };
  for (const [k, n] of Object.entries(secretsIn(s.stderr()))) leaks[k] = (leaks[k] ?? 0) + n;
  await s.close();
  await sandbox.close();
  const f = sandbox.faults.injected;
  return {
    calls_made: report.calls,
    planned: report.planned,
    ms: report.ms,
    faults_injected: { ...f, total: f.upstream_error + f.reset_before + f.reset_after },
    crashes: alive ? 0 : 1,
    answers: { ok: report.ok, ...report.byCode },
    unclean_answers: report.broken.length,
    unexplained_errors: report.unexpected.length,
    reads_repeated: report.readsRepeated,
    reads_failed_for_good: report.readsFailedForGood.length,
    creates: report.creates.length,
    creates_outcome_unknown: report.creates.filter((c) => c.outcome === 'outcome_unknown').length,
    creates_unknown_but_applied: dups.unknownApplied,
    duplicates: dups.duplicates,
    lost_or_mismatched: dups.lostOrMismatched.length,
    leaked_secrets: Object.values(leaks).reduce((a, b) => a + b, 0),
    samples: [...report.broken, ...report.unexpected, ...report.readsFailedForGood, ...dups.lostOrMismatched].slice(0, 5),
  };
}

async function fuzzRun() {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 120, seed, rateWindowMs: 1000, bucketLimits: BIG });
  const relay = await startRelay(sandbox.baseUrl);
  const s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: relay.url });
  log(`fuzz: ${fuzzRuns} argument sets for each of ${s.tools.length} tools`);
  const started = Date.now();
  const report = await fuzzTools(s, relay, { runs: fuzzRuns, seed });
  const alive = s.alive() && (await s.client.listTools()).tools.length === TOOL_ENDPOINTS.length;
  const leaks = Object.values(secretsIn(s.stderr())).reduce((a, b) => a + b, 0);
  await s.close();
  await relay.close();
  await sandbox.close();
  return {
    fuzz_cases: report.cases,
    ms: Date.now() - started,
    refused_by_schema: report.refusedBySchema,
    reached_api: report.reachedApi,
    requests_seen: relay.seen.length,
    crashes: alive ? 0 : 1,
    failures: report.failures.length,
    leaked_secrets: leaks,
    samples: report.failures.slice(0, 5),
  };
}

/** Creates applied by the API whose answer a gateway replaced with 500/502/503/504 or a cut connection, one create in three. */
async function appliedRun() {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 500, seed, rateWindowMs: 1000, bucketLimits: BIG });
  const gateway = await startGateway(sandbox.baseUrl);
  const cycle: GatewayFault[] = [500, 502, 503, 504, 'cut'];
  let creates = 0;
  gateway.fault = (method, url) => {
    if (method !== 'POST' || !/\/(tasks|notes)$/.test(url)) return null;
    const n = creates++;
    return n % 3 === 0 ? cycle[(n / 3) % cycle.length]! : null;
  };
  const s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: gateway.url });
  const leads = workloadLeads(sandbox);
  const tag = `applied-${Date.now()}`;
  log(`applied writes answered 5xx: ${appliedCalls} calls, ${parallel} in parallel, one create in three answered 500/502/503/504/cut by a gateway`);
  const report = await runWorkload(s, { calls: appliedCalls, parallel, seed, leads, tag });
  const alive = s.alive();
  const dups = countDuplicates(sandbox.store, tag, report.creates);
  const leaks = Object.values(secretsIn(s.stderr())).reduce((a, b) => a + b, 0) + Object.values(report.leaks).reduce((a, b) => a + b, 0);
  await s.close();
  await gateway.close();
  await sandbox.close();
  const byFault: Record<string, number> = {};
  for (const r of gateway.replaced) byFault[String(r.fault)] = (byFault[String(r.fault)] ?? 0) + 1;
  const unknown = report.creates.filter((c) => c.outcome === 'outcome_unknown').length;
  return {
    calls_made: report.calls,
    writes_answered_5xx_or_cut_after_applied: gateway.replaced.length,
    by_fault: byFault,
    reported_outcome_unknown: unknown,
    unknown_and_applied: dups.unknownApplied,
    duplicates: dups.duplicates,
    lost_or_mismatched: dups.lostOrMismatched.length,
    reported_otherwise: report.unexpected.length,
    crashes: alive ? 0 : 1,
    leaked_secrets: leaks,
    samples: [...report.unexpected, ...dups.lostOrMismatched].slice(0, 5),
  };
}

/** The MCP client's own request timeout, as most clients set it: a call past it is lost to its caller. */
const CLIENT_TIMEOUT_MS = 60_000;

/**
 * Calls to an upstream-bucket tool under faults, with the spec's buckets and window: a call whose
 * refill lies past its deadline must answer at once (rate_limited), never outlive its client.
 */
async function deadlineRun() {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 500, seed, faults: values.faults });
  const s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], {
    REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
    REPLY_INBOX_BASE_URL: sandbox.baseUrl,
  });
  log(`deadline workload: ${deadlineCalls} list_meetings calls (upstream bucket, spec figures), 4 in parallel, faults ${values.faults}`);
  const ms: number[] = [];
  const codes: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < deadlineCalls) {
        next++;
        const t = Date.now();
        let code: string;
        try {
          const r = await s.client.callTool({ name: 'list_meetings', arguments: { limit: 5 } }, { timeout: CLIENT_TIMEOUT_MS });
          code = r.isError ? (/"code":"([a-z_]+)"/.exec(firstText(r as CallToolResult))?.[1] ?? 'error') : 'ok';
        } catch (e) {
          code = `jsonrpc_${(e as { code?: number }).code ?? 'error'}`;
        }
        ms.push(Date.now() - t);
        codes[code] = (codes[code] ?? 0) + 1;
      }
    }),
  );
  const alive = s.alive();
  await s.close();
  await sandbox.close();
  return {
    calls_made: ms.length,
    answers: codes,
    over_60s: ms.filter((x) => x >= CLIENT_TIMEOUT_MS).length,
    longest_ms: Math.max(0, ...ms),
    crashes: alive ? 0 : 1,
  };
}

const run = async <T>(part: (typeof PARTS)[number], f: () => Promise<T>): Promise<T | undefined> => (only.has(part) ? f() : undefined);
const deadline = await run('deadline', deadlineRun);
const faults = await run('faults', faultRun);
const fuzz = await run('fuzz', fuzzRun);
const applied = await run('applied', appliedRun);
const keys = await run('keys', async () => {
  log(`made-up keys: ${values['made-up-keys']} initializes over HTTP, each with a key the API does not know`);
  const k = await madeUpKeysRun(Number(values['made-up-keys']));
  log(`made-up keys: RSS grew ${k.rss_growth_mb} MB (budget ${k.rss_budget_mb} MB), keys held after: ${k.keys_held_after}`);
  return k;
});
const attack = await run('attack', () => attackRun(attackOptions(values)));
const summary = { faults, fuzz, applied, keys, deadline, attack };
process.stdout.write(`${JSON.stringify(summary)}\n`);
const sum = (...n: number[]) => n.reduce((a, b) => a + b, 0);
const broken = sum(
  keys ? keysBroken(keys) : 0,
  attack ? attackBroken(attack) : 0,
  ...(faults
    ? [
        faults.crashes,
        faults.unclean_answers,
        faults.unexplained_errors,
        faults.reads_failed_for_good,
        faults.duplicates,
        faults.lost_or_mismatched,
        faults.leaked_secrets,
      ]
    : []),
  ...(fuzz ? [fuzz.crashes, fuzz.failures, fuzz.leaked_secrets] : []),
  ...(deadline ? [deadline.over_60s, deadline.crashes] : []),
  ...(applied
    ? [
        applied.crashes,
        applied.duplicates,
        applied.lost_or_mismatched,
        applied.reported_otherwise,
        applied.leaked_secrets,
        Math.abs(applied.writes_answered_5xx_or_cut_after_applied - applied.unknown_and_applied),
      ]
    : []),
);
process.exit(broken === 0 ? 0 : 1);
