import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { RUN_MARK } from './run-mark.js';

/*
 * Every process the suite starts, in one place: the binaries' paths, the environment they
 * get, and a record of what is still running so that nothing outlives its test. Free of
 * vitest, so that scripts (npm run soak) can use the helpers built on it.
 */

/** The built binaries (vitest's global setup, or the script that needs them, builds dist/ first). */
export const BIN = fileURLToPath(new URL('../../dist/src/cli/mcp.js', import.meta.url));
export const SANDBOX_BIN = fileURLToPath(new URL('../../dist/src/cli/sandbox.js', import.meta.url));

/** A child environment without the test process's REPLY_INBOX_* variables, so only what a test passes counts. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const mark = process.env[RUN_MARK];
  return { ...getDefaultEnvironment(), ...(mark ? { [RUN_MARK]: mark } : {}), ...extra };
}

interface Tracked {
  pid: number;
  child: ChildProcess | null;
  /** Started inside a test (ended when it ends) or outside one (ended with its file). */
  inTest: boolean;
}
const running = new Map<number, Tracked>();
/** Tests under way in this file: more than one inside a describe.concurrent. */
let testsUnderWay = 0;

/** Whether a process of this id still runs (signal 0 checks without sending anything). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function alive(t: Tracked): boolean {
  if (t.child) return t.child.exitCode === null && t.child.signalCode === null;
  return pidAlive(t.pid);
}

function end(t: Tracked): void {
  running.delete(t.pid);
  if (!alive(t)) return;
  try {
    process.kill(t.pid, 'SIGKILL');
  } catch {
    // it ended between the check and the kill
  }
}

/** Record a process started elsewhere (the SDK's stdio transport spawns its own). */
export function track(pid: number | undefined | null, child: ChildProcess | null = null): void {
  if (!pid) return;
  const t: Tracked = { pid, child, inTest: testsUnderWay > 0 };
  running.set(pid, t);
  child?.once('exit', () => running.delete(pid));
}

/** child_process.spawn (with its typings), recorded; the environment defaults to this process's, which carries the run's mark. */
export const spawnTracked = ((command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess => {
  const child = spawn(command, args, options);
  track(child.pid, child);
  return child;
}) as typeof spawn;

/** Whether a recorded process belongs to the test under way (true) or to its file (false). */
export function startedInTest(child: ChildProcess): boolean {
  return child.pid !== undefined && running.get(child.pid)?.inTest === true;
}

/** A process restarted in place of another (a server a test restarts) belongs where the one it replaces did. */
export function standsInFor(child: ChildProcess, previousInTest: boolean): void {
  const t = child.pid === undefined ? undefined : running.get(child.pid);
  if (t) t.inTest = previousInTest;
}

/** An SDK stdio transport whose process is recorded once it has started. */
export function stdioTransport(command: string, args: string[], env: Record<string, string> = {}, cwd?: string): StdioClientTransport {
  const transport = new StdioClientTransport({ command, args, env: cleanEnv(env), stderr: 'pipe', cwd });
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    track(transport.pid);
  };
  return transport;
}

/** A test begins: what starts from now on belongs to it. */
export function testStarted(): void {
  testsUnderWay++;
}

/**
 * A test ended, passed or failed: end what it started and left running. Tests that run
 * concurrently cannot tell whose process is whose, so their processes are ended when the
 * last of them ends, never under one still running.
 */
export function testEnded(): void {
  testsUnderWay = Math.max(0, testsUnderWay - 1);
  if (testsUnderWay > 0) return;
  for (const t of [...running.values()]) if (t.inTest) end(t);
}

/** A file ended: end everything it started. */
export function fileEnded(): void {
  for (const t of [...running.values()]) end(t);
}

// A worker that exits with children left (a crash, an unhandled error) takes them along.
process.once('exit', fileEnded);
