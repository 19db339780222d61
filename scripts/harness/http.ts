import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { Client, type ClientCapabilities, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN, cleanEnv, spawnTracked } from './processes.js';

export interface HttpBinary {
  /** The MCP endpoint the binary printed, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  /** The whole line it printed on stdout when it listened. */
  stdoutLine: string;
  child: ChildProcess;
  stderr(): string;
  /** Send a signal (SIGTERM by default) unless one was sent already, and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start the built binary with --http on a free loopback port and wait for the URL it prints on stdout. */
export async function startHttpBinary(args: string[], env: Record<string, string> = {}): Promise<HttpBinary> {
  const child = spawnTracked(process.execPath, [BIN, '--http', '127.0.0.1:0', '--log-level', 'warn', ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const deadline = Date.now() + 15_000;
  while (!out.includes('\n') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!out.includes('\n')) {
    child.kill('SIGKILL');
    throw new Error(`the HTTP binary did not start:\n${err}`);
  }
  const stdoutLine = out.split('\n')[0]!;
  const url = (JSON.parse(stdoutLine) as { url: string }).url;
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    url,
    stdoutLine,
    child,
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      // A second SIGTERM would end a drain at once: signal only a child nobody signalled yet.
      if (child.exitCode === null && child.signalCode === null && !child.killed) child.kill(signal);
      return exited;
    },
  };
}

/** Which protocol era a client speaks: the 2025 handshake (the SDK's default) or 2026-07-28 per request. */
export type Era = 'legacy' | 'modern';

/** The client option that makes the SDK speak that era: pinned, so a server without it fails the connect. */
export function eraOption(era: Era): { versionNegotiation?: { mode: { pin: '2026-07-28' } } } {
  return era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
}

/** An SDK client over Streamable HTTP; `authorization` is the whole header value. */
export async function connectHttp(url: string, authorization?: string, era: Era = 'legacy', capabilities: ClientCapabilities = {}): Promise<Client> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'e2e-http', version: '0.0.0' }, { capabilities, ...eraOption(era) });
  await client.connect(transport);
  return client;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over node:http, which (unlike fetch) sends the Host and Origin headers it is given. */
export function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'POST', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** An initialize request as a client sends it first. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** The headers of a Streamable HTTP POST. */
export function mcpHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
}

/** One initialize's answer: its status, the session it opened, and the limit that refused it (error.data.limit), with Retry-After. */
export interface InitializeAnswer {
  status: number | 'error';
  sessionId?: string;
  limit?: string;
  retryAfter?: number;
}

/** An initialize with `key`, as a raw client sends it, answered as an InitializeAnswer (a failed connection is 'error'). */
export async function initializeWith(url: string, key: string): Promise<InitializeAnswer> {
  const r = await raw(url, { headers: mcpHeaders({ authorization: `Bearer ${key}` }), body: INITIALIZE }).catch(() => null);
  if (!r) return { status: 'error' };
  const sid = r.headers['mcp-session-id'];
  const limit = r.status === 200 ? undefined : (JSON.parse(r.body) as { error?: { data?: { limit?: string } } }).error?.data?.limit;
  const retryAfter = r.headers['retry-after'] === undefined ? undefined : Number(r.headers['retry-after']);
  return {
    status: r.status,
    ...(typeof sid === 'string' ? { sessionId: sid } : {}),
    ...(limit ? { limit } : {}),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

/** Whether a session still answers its client: a ping on it gets 200 (a closed one gets 404). */
export async function sessionAnswers(url: string, key: string, sessionId: string): Promise<boolean> {
  const headers = mcpHeaders({ authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': sessionId });
  const r = await raw(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
  return r.status === 200;
}
