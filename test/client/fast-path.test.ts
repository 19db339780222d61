import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually, turn } from '../helpers/turns.js';
import { ADMIN_KEY_ID, CLOCK_START, client, sandboxOn, WindowTurner } from './helpers.js';

const WINDOW = 1000;
const READ = 20;
let sb: Sandbox;
/**
 * The sandbox's windows and the client's limiter run on one clock that the test turns only when
 * the limiter waits for a refill; answers take turns of the event loop, so calls overlap as they would.
 */
const clock = new ManualClock(CLOCK_START);
/** When (on that clock) the sandbox counted each read of the admin key it served. */
const served: number[] = [];

beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: { read: READ } });
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    const refused = spend(who, buckets, now);
    if (!refused && who === ADMIN_KEY_ID) served.push(now ?? clock.now());
    return refused;
  };
});
afterAll(() => sb.close());

function onClock() {
  const w = client(sb, { clock });
  return { ...w, turner: new WindowTurner(w, clock, WINDOW) };
}

describe('Limits: calls sent at once (tokens free) and calls queued through bottleneck share the buckets and the 4 slots', () => {
  it('racing both paths at the edge of the read bucket: zero 429s, never more than 4 in flight, every token of each whole window used', async () => {
    const w = onClock();
    await w.client.me();
    w.turner.next();
    const first = w.turner.window;
    const calls: Promise<unknown>[] = [];
    let answered = 0;
    const read = () => calls.push(w.client.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } }).finally(() => answered++));
    for (let window = 0; window < 3; window++) {
      if (window > 0) {
        // The previous window's burst left calls waiting for this refill; they go first.
        await w.turner.atRefillWait();
        await eventually('the calls the refill let go answered', () => answered === calls.length);
      }
      // Early in the window: single calls that find tokens free, some of them while others are in flight.
      for (let i = 0; i < 10; i++, await turn()) read();
      // Then a burst larger than what is left, so the rest waits for the refill.
      for (let i = 0; i < 20; i++) read();
    }
    await w.turner.settle(Promise.all(calls));
    const last = Math.floor(Math.max(...served) / WINDOW);
    const perWindow = Array.from({ length: last - first }, (_, i) => served.filter((t) => Math.floor(t / WINDOW) === first + i).length);
    expect(sb.limits.refusals(ADMIN_KEY_ID)).toMatchObject({ rate_limited: 0, too_many_concurrent: 0 });
    expect(w.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    expect(sb.limits.peakInFlight(ADMIN_KEY_ID)).toBeLessThanOrEqual(4);
    expect(w.client.limiterState().peakInFlight).toBe(4);
    expect(perWindow.length).toBeGreaterThanOrEqual(3);
    expect(perWindow).toEqual(perWindow.map(() => READ));
    const { sent } = w.client.limiterState();
    expect(sent.atOnce).toBeGreaterThan(0);
    expect(sent.queued).toBeGreaterThan(0);
    expect(sent.atOnce + sent.queued).toBe(calls.length + 1);
    await w.client.close();
  });

  it('a call that queues after calls sent at once finds the reservoir in step: it waits for the refill, and is never let through to step back', async () => {
    const w = onClock();
    await w.client.me();
    w.turner.next();
    const list = () => w.client.call('list_members', { path: { workspace: 'acme' }, query: { limit: 1 } });
    // One at a time: each finds tokens free and goes at once, until the window's reads are spent.
    for (let i = 0; i < READ; i++) await list();
    const window = w.turner.window;
    const before = served.length;
    await w.turner.settle(list());
    expect(w.client.limiterState().sent).toEqual({ atOnce: READ + 1, queued: 1 });
    expect(w.events.filter((e) => e.type === 'step_back')).toEqual([]);
    expect(Math.floor(served[before]! / WINDOW)).toBe(window + 1);
    expect(w.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    await w.client.close();
  });
});
