import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS } from '../../src/client/index.js';
import { errorBody } from '../../src/mcp/errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually, turn } from '../helpers/turns.js';
import { ADMIN_KEY_ID, CLOCK_START, client, sandboxOn } from './helpers.js';

const WINDOW = 20_000;
const UPSTREAM = 2;
let sb: Sandbox;
let sent = 0;
/** The sandbox and the clients run on one clock that moves only when a test says. */
const clock = new ManualClock(CLOCK_START);

beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: { upstream: UPSTREAM } });
  const spend = sb.limits.spend.bind(sb.limits);
  sb.limits.spend = (who, buckets, now) => {
    if (who === ADMIN_KEY_ID) sent++;
    return spend(who, buckets, now);
  };
});
afterAll(() => sb.close());

describe('No call outlives its client', () => {
  it('the default deadline stays below the 60 s request timeout of MCP clients', () => {
    expect(DEFAULT_TIMEOUTS.deadlineMs).toBeLessThan(60_000);
  });

  it('a call whose bucket refills only after its deadline answers at once with rate_limited: the bucket, the refill time, what to do meanwhile', async () => {
    const w = client(sb, { clock });
    await w.client.me();
    for (let i = 0; i < UPSTREAM; i++) await w.client.call('list_meetings', { path: { workspace: 'acme' } });
    const before = sent;
    const started = clock.now();
    const err = await w.client.call('list_meetings', { path: { workspace: 'acme' }, deadlineMs: 3_000 }).catch((e: unknown) => e);
    // At once, judged by what came back: a call that queued for the refill would end as a deadline timeout.
    expect(err).toMatchObject({ code: 'rate_limited', bucket: 'upstream', sent: 'no' });
    expect(sent).toBe(before);
    // The clock has not moved: the refill is the window's end, and the client's margin of 50 ms.
    expect((err as { refill_at: string }).refill_at).toBe(new Date(started + WINDOW + 50).toISOString());
    const body = errorBody(err, 'list_meetings');
    expect(body.error).toMatchObject({ code: 'rate_limited', bucket: 'upstream', refill_at: (err as { refill_at: string }).refill_at });
    expect(body.error.retry_after).toBe(Math.ceil((WINDOW + 50) / 1000));
    expect(body.next_step).toContain('upstream');
    expect(body.next_step).toContain('Meanwhile');
    // Whoever watches the client hears that the bucket is spent, as when calls queue for it.
    expect(w.events.filter((e) => e.type === 'exhausted').map((e) => (e as { bucket: string }).bucket)).toEqual(['upstream']);
    // A call on another bucket still goes through at once.
    expect((await w.client.call('list_members', { path: { workspace: 'acme' } })).status).toBe(200);
    await w.client.close();
  });

  it("the deadline is counted on the client's clock: a call the API holds ends when that clock reaches it, not before", async () => {
    sb.faults.faults.latency_ms = 60_000;
    try {
      const w = client(sb, { clock, discoverLimits: false });
      let settled = false;
      const call = w.client.call('list_members', { path: { workspace: 'acme' }, deadlineMs: 20_000 }).catch((e: unknown) => e);
      void call.finally(() => (settled = true));
      await eventually('the sandbox holds the request', () => sb.limits.inFlightNow(ADMIN_KEY_ID) === 1);
      clock.advance(19_999);
      await turn();
      expect(settled).toBe(false);
      clock.advance(1);
      await eventually('the call ended by its deadline', () => settled);
      expect(await call).toMatchObject({ code: 'timeout', phase: 'deadline', sent: 'maybe' });
      await w.client.close();
    } finally {
      sb.faults.faults.latency_ms = 0;
    }
  });
});
