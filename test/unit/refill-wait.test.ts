import { describe, expect, it } from 'vitest';
import { Limiter, type LimiterEvent, SPEC_FIGURES, type Settlement } from '../../src/client/limiter/limiter.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually } from '../helpers/turns.js';

const FALLBACK = 60_000;
/** An answer without rate headers: counted in the current window, which turns after the fallback. */
const ANSWERED: Settlement = {
  kind: 'response',
  status: 200,
  code: undefined,
  info: { limit: undefined, remaining: undefined, resetMs: undefined, bucket: undefined, retryAfter: undefined },
};

/** A read limiter of two tokens per window on a clock the test moves; each exchange answers when the test says. */
function setUp() {
  const clock = new ManualClock(0);
  const events: LimiterEvent[] = [];
  const limiter = new Limiter({
    figures: SPEC_FIGURES,
    caps: { read: 2 },
    refillMarginMs: 50,
    fallbackWindowMs: FALLBACK,
    fastYield: true,
    clock,
    onEvent: (e) => events.push(e),
  });
  const answers: (() => void)[] = [];
  const call = () =>
    limiter.run(['read'], new AbortController().signal, async () => {
      await new Promise<void>((resolve) => answers.push(resolve));
      return { value: 'ok', settlement: ANSWERED };
    });
  const waits = () => events.filter((e) => e.type === 'waiting_for_refill');
  const read = () => limiter.state().buckets.find((b) => b.bucket === 'read')!;
  return { clock, limiter, answers, call, waits, read };
}

describe('the limiter says when it waits for a refill: no call in flight, every queued call behind an empty bucket', () => {
  it('not while a call is in flight; once per wait, with the calls waiting and the refill time; again at the next wait', async () => {
    const { clock, limiter, answers, call, waits, read } = setUp();
    const calls = Array.from({ length: 5 }, call);
    await eventually('two calls sent and three queued', () => answers.length === 2 && read().queued === 3, read);
    answers[0]!();
    await calls[0];
    expect(waits()).toEqual([]);
    answers[1]!();
    await calls[1];
    await eventually('the wait told', () => waits().length > 0, waits);
    expect(waits()).toEqual([{ type: 'waiting_for_refill', buckets: ['read'], queued: 3, refillAt: FALLBACK }]);
    // A call that joins the wait is not a new wait.
    calls.push(call());
    await eventually('the sixth call queued', () => read().queued === 4, read);
    expect(waits()).toHaveLength(1);

    clock.advance(FALLBACK);
    await eventually('two calls sent after the refill', () => answers.length === 4, read);
    answers[2]!();
    answers[3]!();
    await Promise.all(calls.slice(2, 4));
    await eventually('the next wait told', () => waits().length > 1, waits);
    expect(waits()[1]).toEqual({ type: 'waiting_for_refill', buckets: ['read'], queued: 2, refillAt: 2 * FALLBACK });
    expect(waits()).toHaveLength(2);
    const rest = Promise.allSettled(calls.slice(4));
    await limiter.close();
    await rest;
  });
});
