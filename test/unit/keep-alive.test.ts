import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEEP_ALIVE_MS, keepAlive } from '../../src/mcp/pipeline/keep-alive.js';
import { ManualClock } from '../helpers/manual-clock.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('A call still running sends progress while it waits, if the client gave a progress token', () => {
  it('one notification per period, each higher than the last, and none after the call ends', async () => {
    const seen: [number, string][] = [];
    const stop = keepAlive(async (n, message) => {
      seen.push([n, message]);
    });
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS - 1);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.map(([n]) => n)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(2 * KEEP_ALIVE_MS);
    expect(seen).toEqual([
      [1, 'still working (10 s): waiting for the rate limit or the API'],
      [2, 'still working (20 s): waiting for the rate limit or the API'],
      [3, 'still working (30 s): waiting for the rate limit or the API'],
    ]);
    stop();
    await vi.advanceTimersByTimeAsync(5 * KEEP_ALIVE_MS);
    expect(seen).toHaveLength(3);
  });

  it('a send that fails does not stop the next one', async () => {
    const seen: number[] = [];
    const stop = keepAlive(async (n) => {
      seen.push(n);
      throw new Error('the client went away');
    }, 1_000);
    await vi.advanceTimersByTimeAsync(3_000);
    stop();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('runs on the clock it is given, not on the process timers', async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const stop = keepAlive(
      async (n) => {
        seen.push(n);
      },
      1_000,
      clock,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual([]);
    clock.advance(3_000);
    expect(seen).toEqual([1, 2, 3]);
    stop();
    expect(clock.pending).toBe(0);
  });
});
