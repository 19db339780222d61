import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { BIN, cleanEnv, spawnTracked, stdioTransport } from '../../scripts/harness/processes.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';

export { BIN, cleanEnv } from '../../scripts/harness/processes.js';
import { type Era, eraOption } from '../../scripts/harness/http.js';
export type { Era } from '../../scripts/harness/http.js';
export { type Relay, startRelay } from '../../scripts/harness/relay.js';
export { callErr, callOk, expectWriteEffects, type Ok, parseToolError, textOf, type ToolErrorBody, toolNames } from '../helpers/tool-calls.js';
/** The names the e2e tests knew the relay by, kept while branches written against them land. */

export interface McpSession {
  client: Client;
  /** The binary's process id. */
  pid(): number;
  /** Everything the binary wrote on stderr so far (its logs). */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawn the binary over stdio with the SDK's client, which also checks structuredContent against each outputSchema. */
export async function startMcp(
  args: string[],
  env: Record<string, string> = {},
  capabilities: ClientCapabilities = {},
  era: Era = 'legacy',
): Promise<McpSession> {
  const transport = stdioTransport(process.execPath, [BIN, ...args], env);
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'e2e-test', version: '0.0.0' }, { capabilities, ...eraOption(era) });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`the MCP binary did not start: ${(e as Error).message}\n${err}`);
  }
  // The SDK checks structuredContent only against schemas it has listed: list them once up front.
  await client.listTools();
  return { client, pid: () => transport.pid!, stderr: () => err, close: () => client.close() };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the binary to its exit, writing `stdin` (then closing it); for flag errors and raw JSON-RPC sessions. */
export async function runBinary(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<RunResult> {
  const child = spawnTracked(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  // 'close' comes after stdout and stderr are drained, unlike 'exit'.
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * A raw JSON-RPC session over the binary's stdio: each request is written once the answer
 * to the previous one arrived, then stdin is closed and the process runs to its exit.
 * `nodeFlags` go to node before the binary (a --require preload, say).
 * Returns everything written on stdout, untouched, to check nothing but JSON-RPC is there.
 */
export async function rawSession(
  args: string[],
  messages: Record<string, unknown>[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<RunResult> {
  const child = spawnTracked(process.execPath, [...nodeFlags, BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiting = new Map<unknown, () => void>();
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
    for (const line of stdout.split('\n')) {
      try {
        const id = (JSON.parse(line) as { id?: unknown }).id;
        waiting.get(id)?.();
        waiting.delete(id);
      } catch {
        // An unfinished or non-JSON line: the test that reads stdout judges it.
      }
    }
  });
  const closed = once(child, 'close');
  // A process that dies early answers nothing more: release whoever waits.
  void closed.then(() => {
    for (const release of waiting.values()) release();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  for (const m of messages) {
    const answered = 'id' in m ? new Promise<void>((resolve) => waiting.set(m.id, resolve)) : Promise.resolve();
    child.stdin.write(`${JSON.stringify(m)}\n`);
    await answered;
  }
  child.stdin.end();
  const [code] = (await closed) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** A sandbox of this process, a counting relay before it, and the binary talking to the relay. */
export interface RelayedMcp {
  sandbox: Sandbox;
  proxy: Relay;
  s: McpSession;
  close(): Promise<void>;
}

export async function startRelayedMcp(
  args: string[],
  key: string = SANDBOX_KEYS.admin,
  capabilities: ClientCapabilities = {},
  era: Era = 'legacy',
): Promise<RelayedMcp> {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  const proxy = await startRelay(sandbox.baseUrl);
  const s = await startMcp(args, { REPLY_INBOX_API_KEY: key, REPLY_INBOX_BASE_URL: proxy.url }, capabilities, era);
  return {
    sandbox,
    proxy,
    s,
    close: async () => {
      await s.close();
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** A relayed binary whose client can be asked (elicitation): the questions it was asked, and the answer it gives next. */
export interface Asking extends RelayedMcp {
  questions: string[];
  answer: ElicitResult['action'];
}

/** The binary behind a counting relay, its client answering each question with `answer` (accept first), in either era. */
export async function withElicitation(args: string[], era: Era = 'legacy'): Promise<Asking> {
  const r = (await startRelayedMcp(['--workspace', 'acme', '--log-level', 'warn', ...args], undefined, { elicitation: {} }, era)) as Asking;
  r.questions = [];
  r.answer = 'accept';
  r.s.client.setRequestHandler('elicitation/create', async (req) => {
    r.questions.push(req.params.message);
    return { action: r.answer };
  });
  return r;
}

/** Requests the relay saw from `from` on that wrote something. */
export const writesSince = (r: RelayedMcp, from: number) => r.proxy.requests.slice(from).filter((q) => !q.startsWith('GET '));

/** A seeded acme lead with a status other than unsubscribed, and open state. */
export function someLead(r: RelayedMcp, n = 0): string {
  const leads = [...r.sandbox.store.leads.all()].filter((l) => l.workspace === 'acme' && l.state === 'active' && l.status !== 'unsubscribed');
  return leads[n]!.id;
}
