import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cleanEnv, spawnTracked, testEnded, testStarted } from '../../scripts/harness/processes.js';
import { RUN_MARK, markedProcesses } from '../../scripts/harness/run-mark.js';

const IDLE = ['-e', 'setInterval(() => {}, 1000)'];

describe('the suite ends every process it starts', () => {
  it('a process a test started and left running is ended when the test ends', async () => {
    const child = spawnTracked(process.execPath, IDLE, { stdio: 'ignore' });
    const exited = once(child, 'exit');
    // What the per-test hook does after each test; this test then carries on as a test again.
    testEnded();
    testStarted();
    const [code, signal] = (await exited) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('tests running concurrently: a process is ended when the last of them ends, not under one still running', async () => {
    // This test is under way (one); a second starts beside it, starts a process, and ends first.
    testStarted();
    const child = spawnTracked(process.execPath, IDLE, { stdio: 'ignore' });
    const exited = once(child, 'exit');
    testEnded();
    await new Promise((r) => setTimeout(r, 200));
    expect(child.exitCode === null && child.signalCode === null).toBe(true);
    // This one ends too (the per-test hook's work), then carries on as a test again.
    testEnded();
    testStarted();
    const [code, signal] = (await exited) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('every child carries the run mark, and the teardown check finds one that outlived its test', async () => {
    const mark = `check-${process.pid}-${Date.now()}`;
    const child = spawnTracked(process.execPath, IDLE, { stdio: 'ignore', env: { ...cleanEnv(), [RUN_MARK]: mark } });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const found = markedProcesses(mark, () => false);
      if (found === null) return expect(process.platform).not.toBe('linux');
      expect(found.map((p) => p.pid)).toEqual([child.pid]);
      expect(markedProcesses(mark, (pid) => pid === child.pid)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('cleanEnv passes the run mark on and nothing else of this process', () => {
    const env = cleanEnv({ EXTRA: '1' });
    expect(env[RUN_MARK]).toBe(process.env[RUN_MARK]);
    expect(env[RUN_MARK]).toBeTruthy();
    expect(Object.keys(env).filter((k) => k.startsWith('REPLY_INBOX_') && k !== RUN_MARK)).toEqual([]);
    expect(env.EXTRA).toBe('1');
  });
});
