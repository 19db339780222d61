import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, type ClientOptions, type LimiterEvent, TimeoutError } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually, turn } from '../helpers/turns.js';
import { ADMIN_KEY_ID, CLOCK_START, client, sandboxOn } from './helpers.js';

const WINDOW = 2000;
let sb: Sandbox;
/**
 * The sandbox (its windows and its latency) and the client (its limiter and its deadlines) run
 * on one clock the test moves: a window turns and a deadline passes only when a test says so,
 * however slow the machine, so "at once" is judged by what happened (no refill came) rather
 * than by milliseconds. A fresh sandbox per test: counts start at zero.
 */
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(CLOCK_START);
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: { read: 3 } });
});
afterEach(() => sb.close());

const ws = { workspace: 'acme' };
const readLeft = () => sb.limits.state(ADMIN_KEY_ID, 'read').remaining;

function onClock(opts: Partial<ClientOptions> = {}) {
  return client(sb, { discoverLimits: false, clock, ...opts });
}

describe('Cancellation: an MCP cancellation aborts the request, or drops it from the queue and gives its token back', () => {
  it('before the request: an aborted signal rejects at once and nothing is sent', async () => {
    const { client: c } = onClock();
    const before = readLeft();
    const err = await c.call('list_members', { path: ws, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err).toMatchObject({ code: 'cancelled', sent: 'no' });
    expect(readLeft()).toBe(before);
    expect(c.limiterState().inFlight).toBe(0);
    await c.close();
  });

  it('during the request: the exchange is aborted while the sandbox still holds it, before any answer', async () => {
    // The answer waits on the clock, which does not move: the sandbox holds the request until the end.
    sb.faults.faults.latency_ms = 10_000;
    const { client: c } = onClock();
    const ctl = new AbortController();
    const call = c.call('list_members', { path: ws, signal: ctl.signal }).catch((e: unknown) => e);
    await eventually('the sandbox holds the request', () => sb.limits.inFlightNow(ADMIN_KEY_ID) === 1);
    ctl.abort();
    const err = await call;
    expect(err).toMatchObject({ kind: 'cancelled', sent: 'maybe' });
    // The sandbox is still sleeping on it: the call ended without the answer.
    expect(sb.limits.inFlightNow(ADMIN_KEY_ID)).toBe(1);
    expect(c.limiterState().inFlight).toBe(0);
    await c.close();
  });

  it('while queued behind an empty bucket: the call is dropped without waiting for the refill, and its place is given back', async () => {
    const events: LimiterEvent[] = [];
    const { client: c } = onClock({ limits: { read: 3 }, onLimiterEvent: (e) => events.push(e) });
    const read = () => c.limiterState().buckets.find((b) => b.bucket === 'read')!;
    const first = Array.from({ length: 3 }, () => c.call('list_members', { path: ws }));
    const ctl = new AbortController();
    const queued = c.call('list_members', { path: ws, signal: ctl.signal }).catch((e: unknown) => e);
    await eventually('the fourth call queued', () => read().queued === 1, read);
    ctl.abort();
    // The window cannot turn until the test moves the clock: the call settles only because it was dropped.
    const err = await queued;
    expect(err).toMatchObject({ kind: 'cancelled', sent: 'no' });
    expect(events.filter((e) => e.type === 'refill')).toEqual([]);
    await Promise.all(first);
    // The three calls spent the window; the dropped one never reached the service.
    expect(readLeft()).toBe(0);
    expect(sb.limits.state(ADMIN_KEY_ID, 'read').remaining).toBe(0);
    clock.advance(WINDOW + 100);
    // Bottleneck lets the dropped job leave its queue once the reservoir refills.
    await eventually('the refill', () => read().available === 3 && read().queued === 0, read);
    expect(read()).toMatchObject({ outstanding: 0, queued: 0, available: 3 });
    await c.close();
  });

  it('the overall deadline covers the queue wait: TimeoutError names the bucket still awaited', async () => {
    const { client: c } = onClock({ limits: { read: 3 } });
    const read = () => c.limiterState().buckets.find((b) => b.bucket === 'read')!;
    const first = Array.from({ length: 3 }, () => c.call('list_members', { path: ws }));
    const late = c.call('list_members', { path: ws, deadlineMs: 100 }).catch((e: unknown) => e);
    await eventually('the fourth call queued', () => read().queued === 1, read);
    clock.advance(99);
    await turn();
    expect(read().queued).toBe(1);
    clock.advance(1);
    const err = await late;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'timeout', phase: 'deadline', sent: 'no', waiting_for: 'read' });
    await Promise.all(first);
    await c.close();
  });
});

describe('close(): calls still queued are dropped, never sent; calls at the API are cut', () => {
  it('a call waiting for a refill rejects with CancelledError sent no when the client closes', async () => {
    const { client: c } = onClock({ limits: { read: 1 } });
    const read = () => c.limiterState().buckets.find((b) => b.bucket === 'read')!;
    const first = c.call('list_members', { path: ws }).catch((e: unknown) => e);
    const queued = c.call('list_members', { path: ws }).catch((e: unknown) => e);
    await eventually('the second call queued', () => read().queued === 1, read);
    const closing = c.close();
    expect(await queued).toMatchObject({ kind: 'cancelled', sent: 'no', by: 'shutdown' });
    // The first call was at the API: it is cut, not waited for.
    expect(await first).toMatchObject({ kind: 'cancelled', sent: 'maybe', by: 'shutdown' });
    await closing;
    // Once the sandbox has finished with what reached it: one request, the first.
    await eventually('the sandbox is idle', () => sb.limits.inFlightNow(ADMIN_KEY_ID) === 0);
    expect(sb.limits.state(ADMIN_KEY_ID, 'read').remaining).toBe(2);
    await expect(c.call('list_members', { path: ws })).rejects.toMatchObject({ code: 'cancelled', sent: 'no' });
  });

  // Issue 31 finding 7: a queued call already given its concurrency job waited for a slot that a
  // call in flight held, and close() sent it once the slot was free, after the drain had ended.
  it('a call waiting for a slot that a call in flight holds is dropped, never sent', async () => {
    sb.faults.faults.latency_ms = 10_000;
    const { client: c } = onClock({ limits: { max_concurrent: 1 } });
    const first = c.call('list_members', { path: ws }).catch((e: unknown) => e);
    await eventually('the sandbox holds the first call', () => sb.limits.inFlightNow(ADMIN_KEY_ID) === 1);
    const second = c.call('list_members', { path: ws }).catch((e: unknown) => e);
    // It holds its read token and waits for the slot.
    const read = () => c.limiterState().buckets.find((b) => b.bucket === 'read')!;
    await eventually('the second call waits for the slot', () => read().outstanding === 2, read);
    const closing = c.close();
    const dropped = await second;
    expect(dropped).toMatchObject({ kind: 'cancelled', sent: 'no' });
    expect(dropped).toMatchObject({ by: 'shutdown' });
    expect(await first).toMatchObject({ kind: 'cancelled', sent: 'maybe' });
    await closing;
    // close() did not wait for the API: the sandbox still sleeps on the first call, and the second never came.
    expect(sb.limits.inFlightNow(ADMIN_KEY_ID)).toBe(1);
    expect(c.limiterState().sent).toEqual({ atOnce: 1, queued: 0 });
  });

  it('a write the API has not answered when the client closes is outcome_unknown, naming the read that settles it', async () => {
    sb.faults.faults.latency_ms = 10_000;
    const { client: c } = onClock();
    const lead = [...sb.store.leads.all()].find((l) => l.workspace === 'acme' && l.state === 'active')!;
    const write = c.call('create_task', { path: ws, body: { lead_id: lead.id, notes: 'cut by close' } }).catch((e: unknown) => e);
    await eventually('the sandbox holds the write', () => sb.limits.inFlightNow(ADMIN_KEY_ID) === 1);
    await c.close();
    const err = (await write) as Error & Record<string, unknown>;
    expect(err).toMatchObject({ code: 'outcome_unknown', safe_to_repeat: false });
    expect(err.message).toMatch(/the server shut down/);
    expect(err.check).toMatch(new RegExp(`list_tasks \\(workspace=acme lead_id=${lead.id}\\)`));
    expect(sb.limits.inFlightNow(ADMIN_KEY_ID)).toBe(1);
  });
});
