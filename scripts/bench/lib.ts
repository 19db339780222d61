/** What every benchmark section shares: statistics, tables, sandboxes and MCP sessions. */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { type Era, eraOption } from '../harness/http.js';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const MCP_BIN = `${ROOT}dist/src/cli/mcp.js`;
export const ANCHOR = '2026-11-20T12:00:00Z';

export type Cell = string | number | null;
export interface Section {
  title: string;
  /** What the figures mean for a user, in a sentence or two. */
  note: string;
  columns: string[];
  rows: Cell[][];
  /** Anything a reader must know: a skip, a warning. */
  warnings?: string[];
}

/** Bytes of a tool result's text content, as the model reads it. */
export const textBytes = (r: Record<string, unknown>) =>
  ((r.content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').reduce((n, c) => n + Buffer.byteLength(c.text ?? ''), 0);
/** Bytes of JSON.stringify(structuredContent): what Claude Code shows the model instead of the text. */
export const jsonBytes = (r: Record<string, unknown>) => (r.structuredContent === undefined ? 0 : Buffer.byteLength(JSON.stringify(r.structuredContent)));

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
export const median = (values: readonly number[]) => percentile(values, 50);
export const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

export function table(s: Section): string {
  const head = `| ${s.columns.join(' | ')} |`;
  const rule = `|${s.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`;
  const body = s.rows.map((r) => `| ${r.map((c) => (c === null ? '—' : String(c))).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

/**
 * Buckets far out of reach: headers still flow, so the server's client runs as it would
 * against the real API, and nothing throttles. (With rate limits off the sandbox sends no
 * rate headers, and a client that hears none keeps to the spec's figures.)
 */
export const UNMETERED: SandboxOptions = {
  bucketLimits: { read: 1_000_000_000, write: 1_000_000_000, upstream: 1_000_000_000, thread: 1_000_000_000, max_concurrent: 1_000_000 },
};

export function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, logLevel: 'silent', now: ANCHOR, ...options });
}

/** The minimal SDK server the start and memory figures are measured against. */
export const FLOOR_BIN = `${ROOT}scripts/bench/floor-server.mjs`;

/** An MCP session over stdio with the built binary (or the floor server), against an API of our choosing. */
export async function mcpSession(sb: Sandbox, opts: { key?: string; args?: string[]; floor?: boolean; bin?: string; era?: Era } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: opts.floor ? [FLOOR_BIN] : [opts.bin ?? MCP_BIN, '--log-level', 'silent', ...(opts.args ?? [])],
    env: { ...process.env, REPLY_INBOX_API_KEY: opts.key ?? sb.keys.admin, REPLY_INBOX_BASE_URL: sb.baseUrl, REPLY_INBOX_WORKSPACE: 'acme' } as Record<
      string,
      string
    >,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'reply-inbox-bench', version: '1' }, eraOption(opts.era ?? 'legacy'));
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

/** Wait until just after a rate window starts, so a run's windows are whole. */
export async function windowStart(windowMs: number): Promise<void> {
  await new Promise((r) => setTimeout(r, windowMs - (Date.now() % windowMs) + 10));
}

/** Resident set size of a process, from /proc (Linux). */
export async function rssMiB(pid: number | null | undefined): Promise<number | null> {
  if (!pid) return null;
  try {
    const { readFile } = await import('node:fs/promises');
    const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time a process has used so far, user and system, in ms, from /proc (Linux). */
export async function cpuMs(pid: number | null | undefined): Promise<number | null> {
  if (!pid) return null;
  try {
    const { readFile } = await import('node:fs/promises');
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th, in ticks of 10 ms.
    const rest = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ').pop()!.split(' ');
    return (Number(rest[11]) + Number(rest[12])) * 10;
  } catch {
    return null;
  }
}
