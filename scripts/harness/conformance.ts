/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the built server over
 * Streamable HTTP. It needs Node 22, while this project runs on Node 20:
 * on an older Node the suite runs under a pinned Node 22 fetched from the npm registry by npx
 * (`node@…`, the npm package that carries the Node binary), and nothing else changes Node.
 *
 * The scenarios are written for servers without authentication; ours requires a credential. A
 * relay in front adds `Authorization` and passes Host and Origin through untouched, so what the
 * suite judges is ours alone.
 *
 *   node --import tsx scripts/harness/conformance.ts [--runs 4] [--mode token|key] [--all] [--spec-version 2026-07-28|2025-11-25]
 *
 * prints, per run, each scenario with the checks of it that did not succeed (needs dist/ and the registry).
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { type HttpBinary, startHttpBinary } from './http.js';
import { spawnTracked } from './processes.js';
import { TEST_NOW } from './sandbox.js';

/** The Node the suite runs on: an exact version, so every run and machine fetches the same binary. */
export const CONFORMANCE_NODE = 'node@22.23.3';
const SUITE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const TOKEN = 'conformance-token-0123456789';

export interface Check {
  id: string;
  status: string;
}
/** Each scenario the suite ran, with its checks (INFO lines left out). */
export type Results = Record<string, Check[]>;

export interface Target {
  /** The relay's /mcp, which the suite talks to. */
  url: string;
  bin: HttpBinary;
  close(): Promise<void>;
}

/** Sandbox, server (token mode: `--http-token`; key mode: the relay sends a sandbox key) and relay. */
export async function startTarget(mode: 'token' | 'key' = 'token', serverArgs: string[] = []): Promise<Target> {
  const sb: Sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  const auth = mode === 'token' ? ['--http-token', TOKEN, '--api-key', SANDBOX_KEYS.admin] : [];
  const bin = await startHttpBinary(['--base-url', sb.baseUrl, ...auth, ...serverArgs]);
  const target = new URL(bin.url);
  const authorization = `Bearer ${mode === 'token' ? TOKEN : SANDBOX_KEYS.admin}`;
  const relay = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers, authorization };
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/mcp`,
    bin,
    close: async () => {
      relay.closeAllConnections();
      relay.close();
      await bin.stop('SIGKILL');
      await sb.close();
    },
  };
}

function readResults(out: string): Results {
  const results: Results = {};
  for (const dir of readdirSync(out)) {
    const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[];
    // A directory is `server-<scenario>-<timestamp>`.
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    results[scenario] = checks.filter((c) => c.status !== 'INFO').map((c) => ({ id: c.id, status: c.status }));
  }
  return results;
}

/** This Node when it is 22 or later (the workflow's Node 22 leg), else the pinned one through npx. */
function suiteNode(): string[] {
  return Number(process.versions.node.split('.')[0]) >= 22 ? [process.execPath] : ['npx', '-y', CONFORMANCE_NODE];
}

/** Which scenarios a run takes: one scenario, or a suite (`active`, `all`) cut to a protocol revision. */
export interface Selection {
  scenario?: string;
  /** The suite's `--suite`: `all` takes the scenarios that `active` (the default) leaves out. */
  suite?: 'active' | 'all';
  /** The suite's `--spec-version`: the scenarios that apply at that revision. */
  specVersion?: '2025-11-25' | '2026-07-28';
}

/** One run of the suite under the pinned Node 22; its exit code and results. */
export async function runSuite(url: string, select: Selection = {}, suite = SUITE): Promise<{ code: number | null; log: string; results: Results }> {
  const out = mkdtempSync(join(tmpdir(), 'conformance-'));
  try {
    const args = [
      suite,
      'server',
      '--url',
      url,
      ...(select.scenario ? ['--scenario', select.scenario] : []),
      ...(select.suite ? ['--suite', select.suite] : []),
      ...(select.specVersion ? ['--spec-version', select.specVersion] : []),
      '-o',
      out,
    ];
    const [command, ...pre] = suiteNode();
    const child = spawnTracked(command!, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, log, results: readResults(out) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** "scenario check-id STATUS" for every check that did not succeed, sorted: two runs pass alike when these match. */
export function notPassed(results: Results): string[] {
  return Object.entries(results)
    .flatMap(([scenario, checks]) => checks.filter((c) => c.status !== 'SUCCESS').map((c) => `${scenario} ${c.id} ${c.status}`))
    .sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      mode: { type: 'string', default: 'token' },
      suite: { type: 'string', default: SUITE },
      'spec-version': { type: 'string' },
      all: { type: 'boolean', default: false },
    },
  });
  const select: Selection = {
    suite: values.all ? 'all' : undefined,
    specVersion: values['spec-version'] as Selection['specVersion'],
  };
  const target = await startTarget(values.mode === 'key' ? 'key' : 'token');
  try {
    for (let i = 1; i <= Number(values.runs); i++) {
      const r = await runSuite(target.url, select, values.suite);
      const checks = Object.values(r.results).flat();
      const ok = checks.filter((c) => c.status === 'SUCCESS').length;
      process.stdout.write(`run ${i}: exit ${r.code}, ${Object.keys(r.results).length} scenarios, ${ok}/${checks.length} checks passed\n`);
      for (const [scenario, checks] of Object.entries(r.results).sort()) {
        const bad = checks.filter((c) => c.status !== 'SUCCESS');
        process.stdout.write(`  ${bad.length ? 'FAIL' : 'pass'} ${scenario}${bad.length ? `: ${bad.map((c) => `${c.id} ${c.status}`).join(', ')}` : ''}\n`);
      }
    }
  } finally {
    await target.close();
  }
}
