import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, TimeoutError } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, atWindowStart, client, sandbox } from './helpers.js';

const WINDOW = 2000;
let sb: Sandbox;
// Every request takes 250 ms in the sandbox, so a call can be caught in flight.
beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: 3 }, faults: 'latency_ms=250' });
});
afterAll(() => sb.close());

const ws = { workspace: 'acme' };
const readLeft = () => sb.limits.state(ADMIN_KEY_ID, 'read').remaining;

describe('Cancellation: an MCP cancellation aborts the request, or drops it from the queue and gives its token back', () => {
  it('before the request: an aborted signal rejects at once and nothing is sent', async () => {
    const { client: c } = client(sb, { discoverLimits: false });
    await atWindowStart(WINDOW);
    const before = readLeft();
    const err = await c.call('list_members', { path: ws, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err).toMatchObject({ code: 'cancelled', sent: 'no' });
    expect(readLeft()).toBe(before);
    await c.close();
  });

  it('during the request: the exchange is aborted well before the answer would come', async () => {
    const { client: c } = client(sb, { discoverLimits: false });
    const ctl = new AbortController();
    const t = Date.now();
    setTimeout(() => ctl.abort(), 30);
    const err = await c.call('list_members', { path: ws, signal: ctl.signal }).catch((e: unknown) => e);
    expect(Date.now() - t).toBeLessThan(200);
    expect(err).toMatchObject({ kind: 'cancelled', sent: 'maybe' });
    expect(c.limiterState().inFlight).toBe(0);
    await c.close();
  });

  it('while queued behind an empty bucket: the call is dropped at once and its place is given back', async () => {
    const { client: c } = client(sb, { discoverLimits: false, limits: { read: 3 } });
    await atWindowStart(WINDOW);
    const first = Array.from({ length: 3 }, () => c.call('list_members', { path: ws }));
    const ctl = new AbortController();
    const queued = c.call('list_members', { path: ws, signal: ctl.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    const read = () => c.limiterState().buckets.find((b) => b.bucket === 'read')!;
    expect(read().queued).toBe(1);
    const t = Date.now();
    ctl.abort();
    const err = await queued;
    expect(Date.now() - t).toBeLessThan(50);
    expect(err).toMatchObject({ kind: 'cancelled', sent: 'no' });
    await Promise.all(first);
    // The three calls spent the window; the dropped one never reached the service.
    expect(readLeft()).toBe(0);
    await atWindowStart(WINDOW);
    await new Promise((r) => setTimeout(r, 80));
    expect(read()).toMatchObject({ outstanding: 0, queued: 0, available: 3 });
    await c.close();
  });

  it('the overall deadline covers the queue wait: TimeoutError names the bucket still awaited', async () => {
    const { client: c } = client(sb, { discoverLimits: false, limits: { read: 3 } });
    await atWindowStart(WINDOW);
    const first = Array.from({ length: 3 }, () => c.call('list_members', { path: ws }));
    const err = await c.call('list_members', { path: ws, deadlineMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'timeout', phase: 'deadline', sent: 'no', waiting_for: 'read' });
    await Promise.all(first);
    await c.close();
  });
});

describe('close(): calls still queued are dropped, never sent', () => {
  it('a call waiting for a refill rejects with CancelledError sent no when the client closes', async () => {
    const { client: c } = client(sb, { discoverLimits: false, limits: { read: 1 } });
    await atWindowStart(WINDOW);
    const first = c.call('list_members', { path: ws });
    const queued = c.call('list_members', { path: ws }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    const closing = c.close();
    expect(await queued).toMatchObject({ kind: 'cancelled', sent: 'no' });
    await first.catch(() => undefined);
    await closing;
    await expect(c.call('list_members', { path: ws })).rejects.toMatchObject({ code: 'cancelled', sent: 'no' });
  });
});
