import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS } from '../../src/client/index.js';
import { errorBody } from '../../src/mcp/errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, atWindowStart, client, sandbox } from './helpers.js';

const WINDOW = 20_000;
const UPSTREAM = 2;
let sb: Sandbox;
let sent = 0;

beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { upstream: UPSTREAM } });
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
    const w = client(sb);
    await w.client.me();
    // Leave enough of the window that the refill surely lies past the deadline below.
    if (WINDOW - (Date.now() % WINDOW) < 8_000) await atWindowStart(WINDOW);
    for (let i = 0; i < UPSTREAM; i++) await w.client.call('list_meetings', { path: { workspace: 'acme' } });
    const before = sent;
    const started = Date.now();
    const err = await w.client.call('list_meetings', { path: { workspace: 'acme' }, deadlineMs: 3_000 }).catch((e: unknown) => e);
    // At once, judged by what came back: a call that queued for the refill would end as a deadline timeout.
    expect(err).toMatchObject({ code: 'rate_limited', bucket: 'upstream', sent: 'no' });
    expect(sent).toBe(before);
    const refill = Date.parse((err as { refill_at: string }).refill_at);
    expect(refill).toBeGreaterThan(started + 3_000);
    expect(refill).toBeLessThanOrEqual(started + WINDOW + 1_000);
    const body = errorBody(err, 'list_meetings');
    expect(body.error).toMatchObject({ code: 'rate_limited', bucket: 'upstream', refill_at: (err as { refill_at: string }).refill_at });
    expect(body.error.retry_after).toBeGreaterThanOrEqual(3);
    expect(body.next_step).toContain('upstream');
    expect(body.next_step).toContain('Meanwhile');
    // Whoever watches the client hears that the bucket is spent, as when calls queue for it.
    expect(w.events.filter((e) => e.type === 'exhausted').map((e) => (e as { bucket: string }).bucket)).toEqual(['upstream']);
    // A call on another bucket still goes through at once.
    expect((await w.client.call('list_members', { path: { workspace: 'acme' } })).status).toBe(200);
    await w.client.close();
  });
});
