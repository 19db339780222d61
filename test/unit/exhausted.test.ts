import { describe, expect, it } from 'vitest';
import { Limiter, type LimiterEvent, SPEC_FIGURES, type Settlement } from '../../src/client/limiter/limiter.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually } from '../helpers/turns.js';

/** An answer without rate headers: counted in the current window. */
const ANSWERED: Settlement = {
  kind: 'response',
  status: 200,
  code: undefined,
  info: { limit: undefined, remaining: undefined, resetMs: undefined, bucket: undefined, retryAfter: undefined },
};
const READ = 3;

/** An in-process limiter of 3 reads and 1 write a window on a clock the test moves; each exchange answers when the test says. */
function setUp(fastYield: boolean) {
  const events: LimiterEvent[] = [];
  const limiter = new Limiter({
    figures: SPEC_FIGURES,
    caps: { read: READ, write: 1 },
    refillMarginMs: 50,
    fallbackWindowMs: 60_000,
    fastYield,
    clock: new ManualClock(0),
    onEvent: (e) => events.push(e),
  });
  const answers: (() => void)[] = [];
  const call = (bucket: 'read' | 'write') =>
    limiter.run([bucket], new AbortController().signal, async () => {
      await new Promise<void>((resolve) => answers.push(resolve));
      return { value: 'ok', settlement: ANSWERED };
    });
  const exhausted = () => events.filter((e) => e.type === 'exhausted');
  const state = () => limiter.state();
  return { limiter, answers, call, exhausted, state };
}

describe("the limiter says when a bucket is emptied while calls wait for it (the 'exhausted' event)", () => {
  for (const fastYield of [true, false]) {
    it(`a burst handed to the queue while the bucket still had tokens: the event comes once the last token is taken (${fastYield ? 'setImmediate' : 'setTimeout'} yields)`, async () => {
      const { limiter, answers, call, exhausted, state } = setUp(fastYield);
      // The write bucket's only token is in flight and a second write waits: from now on every call queues.
      const writes = [call('write'), call('write')];
      await eventually('one write sent and one queued', () => answers.length === 1 && state().sent.atOnce === 1, state);
      expect(exhausted().map((e) => e.bucket)).toEqual(['write']);
      // Five reads, each handed to the queue while the read bucket still shows all its tokens.
      const reads = Array.from({ length: READ + 2 }, () => call('read'));
      await eventually('three reads sent', () => answers.length === 1 + READ, state);
      await eventually(
        'the read bucket reported exhausted',
        () => exhausted().length === 2,
        () => ({ events: exhausted(), state: state() }),
      );
      expect(exhausted()[1]).toMatchObject({ type: 'exhausted', bucket: 'read', queued: 2 });
      // Once per window: the calls that keep waiting are not new news.
      for (const answer of answers.splice(0)) answer();
      await Promise.all([writes[0], ...reads.slice(0, READ)]);
      expect(exhausted()).toHaveLength(2);
      await limiter.close();
      await Promise.allSettled([...writes, ...reads]);
    });
  }
});
