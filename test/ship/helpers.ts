import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { spawnTracked, stdioTransport } from '../../scripts/harness/processes.js';

/** The repository root, where package.json, manifest.json and the scripts live. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Started {
  client: Client;
  tools: { name: string; annotations?: { readOnlyHint?: boolean } }[];
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Spawn a server command as a host would (only the env given, beside PATH and HOME),
 * `initialize` it with the SDK's client and read tools/list.
 */
export async function startServer(command: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Started> {
  const transport = stdioTransport(command, args, env, cwd);
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'ship-test', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${command} ${args.join(' ')} did not start: ${(e as Error).message}\n${err}`);
  }
  const { tools } = await client.listTools();
  return { client, tools, stderr: () => err, close: () => client.close() };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its exit (killed after `timeoutMs`), collecting its output. */
export async function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Ran> {
  const child = spawnTracked(command, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** A figure of the README's size table: the row whose first cell is `label`, its numbers in order. */
export function readmeFigures(label: string): number[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith(`| ${label} |`));
  if (!row) throw new Error(`the README's size table has no row "${label}"`);
  return [...row.slice(label.length + 4).matchAll(/\d+(\.\d+)?/g)].map((m) => Number(m[0]));
}

/** `actual` is what the README says, within 10% (a size moves a little with every change). */
export function closeTo(actual: number, stated: number): boolean {
  return Math.abs(actual - stated) <= stated * 0.1;
}
