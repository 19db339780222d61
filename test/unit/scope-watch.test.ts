import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScopeWatch } from '../../src/mcp/scope-watch.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('The periodic GET /v1/me refresh: one tick per interval while started, none after stop, never overlapping', () => {
  it('ticks every interval from start until stop', async () => {
    let ticks = 0;
    const w = new ScopeWatch(1_000, async () => void ticks++);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ticks).toBe(0);
    w.start();
    w.start();
    expect(w.active).toBe(true);
    await vi.advanceTimersByTimeAsync(3_500);
    expect(ticks).toBe(3);
    w.stop();
    expect(w.active).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ticks).toBe(3);
  });

  it('an interval of 0 never starts', async () => {
    let ticks = 0;
    const w = new ScopeWatch(0, async () => void ticks++);
    w.start();
    expect(w.active).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ticks).toBe(0);
  });

  it('a slow refresh is not started again while it runs', async () => {
    let started = 0;
    let finish = () => {};
    const w = new ScopeWatch(1_000, async () => {
      started++;
      await new Promise<void>((r) => (finish = r));
    });
    w.start();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(started).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(2);
    w.stop();
  });

  it('the timer does not keep the process alive', () => {
    const w = new ScopeWatch(1_000, async () => undefined);
    w.start();
    const timer = (w as unknown as { timer: NodeJS.Timeout }).timer;
    expect(timer.hasRef()).toBe(false);
    w.stop();
  });
});
