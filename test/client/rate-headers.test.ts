import { describe, expect, it } from 'vitest';
import { ApiError, BucketSpentError } from '../../src/client/index.js';
import type { Canned } from '../../scripts/harness/relay.js';
import { sandboxBehindRelay } from '../helpers/behind-relay.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { client, sandbox } from './helpers.js';

/** The client's window (its fallback, the spec's minute) and its refill margin. */
const WINDOW = 60_000;
const MARGIN = 50;
const EMPTY_LIST = JSON.stringify({ object: 'list', data: [], has_more: false, next_cursor: null });

const env = sandboxBehindRelay(() => sandbox());

/** A client on a clock the test moves, whose first list_members is answered by `first` and later ones by the sandbox. */
function withFirstAnswer(first: (now: number) => Canned) {
  const clock = new ManualClock();
  const { sb, relay } = env;
  const w = client(sb, { baseUrl: relay.url, clock, discoverLimits: false, cache: false, refillMarginMs: MARGIN, fallbackWindowMs: WINDOW });
  let answered = false;
  relay.override = (req) => {
    if (answered || !(req.url ?? '').includes('/members')) return null;
    answered = true;
    return first(clock.now());
  };
  const sent = () => relay.requests.filter((r) => r.includes('/members')).length;
  const read = () => w.client.call('list_members', { path: { workspace: 'acme' } });
  return { clock, w, sent, read };
}

describe('Limits: a retry-after or x-ratelimit-reset further ahead than two windows is clamped, said once, and never locks a bucket past that', () => {
  it('a 429 with retry-after: 1000000000 locks the read bucket for two windows, not until 2058', async () => {
    const { clock, w, sent, read } = withFirstAnswer(() => ({
      status: 429,
      headers: { 'retry-after': '1000000000' },
      body: JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }),
    }));
    const before = sent();
    const first = await read().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect(first).toMatchObject({ code: 'rate_limited', retry_after: (2 * WINDOW) / 1000 });
    // Within the bound the bucket stays spent: refused unsent, refilling at most two windows from now.
    const during = await read().catch((e: unknown) => e);
    expect(during).toBeInstanceOf(BucketSpentError);
    expect(Date.parse((during as BucketSpentError).refill_at)).toBeLessThanOrEqual(clock.now() + 2 * WINDOW + MARGIN);
    expect(sent() - before).toBe(1);
    clock.advance(2 * WINDOW + MARGIN);
    const after = await read();
    expect(after.status).toBe(200);
    expect(sent() - before).toBe(2);
    expect(w.events.filter((e) => e.type === 'header_clamped')).toEqual([
      { type: 'header_clamped', header: 'retry-after', value: '1000000000 s', boundMs: 2 * WINDOW },
    ]);
    await w.client.close();
  });

  it('a 200 with x-ratelimit-remaining 0 and a reset 20 days ahead locks reads for two windows, not 20 days', async () => {
    const { clock, w, sent, read } = withFirstAnswer((now) => ({
      status: 200,
      headers: {
        'x-ratelimit-limit': '120',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor((now + 20 * 86_400_000) / 1000)),
      },
      body: EMPTY_LIST,
    }));
    const before = sent();
    expect((await read()).status).toBe(200);
    const during = await read().catch((e: unknown) => e);
    expect(during).toBeInstanceOf(BucketSpentError);
    expect(Date.parse((during as BucketSpentError).refill_at)).toBeLessThanOrEqual(clock.now() + 2 * WINDOW + MARGIN);
    clock.advance(2 * WINDOW + MARGIN);
    expect((await read()).status).toBe(200);
    expect(sent() - before).toBe(2);
    const clamped = w.events.filter((e) => e.type === 'header_clamped');
    expect(clamped).toHaveLength(1);
    expect(clamped[0]).toMatchObject({ header: 'x-ratelimit-reset', boundMs: 2 * WINDOW });
    await w.client.close();
  });
});
