import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { ADMIN_KEY_ID, CLOCK_START, client, sandboxOn, type Watched, WindowTurner, windowsOf } from './helpers.js';

const WINDOW = 1000;
const LIMITS = { read: 8, write: 4, upstream: 2, thread: 3 };
let sb: Sandbox;
/**
 * The sandbox's windows and each client's limiter run on one clock that the test turns only
 * when the limiter waits for a refill: counts per window are what the limiter did, whatever
 * the machine's load.
 */
const clock = new ManualClock(CLOCK_START);
let leadIds: string[];

function onClock(opts: Parameters<typeof client>[1] = {}): Watched & { turner: WindowTurner } {
  const w = client(sb, { clock, ...opts });
  return { ...w, turner: new WindowTurner(w, clock, WINDOW) };
}

/** The client learns the limits (GET /v1/me), then a window starts with every bucket full. */
async function fresh(w: Watched & { turner: WindowTurner }): Promise<void> {
  await w.client.me();
  w.turner.next();
}

beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: LIMITS });
  leadIds = sb.store.leads
    .inGroup('acme')
    .slice(0, 12)
    .map((l) => l.id);
});
afterAll(() => sb.close());
// The previous test may have emptied this window of the key's buckets.
beforeEach(() => clock.advance(WINDOW));

describe('Limits: read bucket — a burst of 3× the bucket completes with zero 429 responses', () => {
  it('in no more windows than the bucket allows', async () => {
    const w = onClock({ limits: LIMITS });
    await fresh(w);
    const n = 3 * LIMITS.read;
    const results = await w.turner.settle(Promise.all(Array.from({ length: n }, () => w.client.call('list_members', { path: { workspace: 'acme' } }))));
    expect(results.every((r) => r.status === 200 && r.attempts === 1)).toBe(true);
    expect(w.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    expect(windowsOf(results)).toBeLessThanOrEqual(Math.ceil(n / LIMITS.read));
    expect(w.events.some((e) => e.type === 'exhausted' && e.bucket === 'read')).toBe(true);
    await w.client.close();
  });

  it('the limit learned from x-ratelimit-limit replaces the figure of GET /v1/me, so a lower real limit causes no 429', async () => {
    // The sandbox's me says 120 reads; its headers say 8: the client must follow the headers.
    const w = onClock();
    await fresh(w);
    const read = w.client.limiterState().buckets.find((b) => b.bucket === 'read')!;
    expect(read).toMatchObject({ limit: LIMITS.read, limitSource: 'header' });
    const results = await w.turner.settle(
      Promise.all(Array.from({ length: 2 * LIMITS.read }, () => w.client.call('list_members', { path: { workspace: 'acme' } }))),
    );
    expect(results).toHaveLength(2 * LIMITS.read);
    expect(w.rejected().rate_limited).toBe(0);
    await w.client.close();
  });
});

describe('Limits: mixed buckets run concurrently without one starving the others; concurrency 4 requests in flight per key', () => {
  it('reads, writes, upstream and thread calls all complete, never more than 4 in flight, zero 429', async () => {
    const w = onClock({ limits: LIMITS });
    await fresh(w);
    // The order in which calls completed, by kind.
    const done: Record<string, number[]> = { read: [], write: [], upstream: [], thread: [] };
    let completed = 0;
    const stamp =
      (k: string) =>
      <T>(r: T) => {
        done[k]!.push(++completed);
        return r;
      };
    const reads = Array.from({ length: 3 * LIMITS.read }, () => w.client.call('list_members', { path: { workspace: 'acme' } }).then(stamp('read')));
    const writes = leadIds.slice(0, LIMITS.write).map((id) => w.client.call('mark_read', { path: { workspace: 'acme', lead_id: id } }).then(stamp('write')));
    const upstream = Array.from({ length: LIMITS.upstream }, () =>
      w.client.call('get_workspace', { path: { workspace: 'acme' }, query: { include: ['counts'] } }).then(stamp('upstream')),
    );
    const thread = leadIds
      .slice(0, LIMITS.thread)
      .map((id) => w.client.call('get_conversation', { path: { workspace: 'acme', lead_id: id } }).then(stamp('thread')));
    const all = await w.turner.settle(Promise.all([...reads, ...writes, ...upstream, ...thread]));
    expect(all.every((r) => r.status < 300)).toBe(true);
    expect(w.rejected()).toEqual({ rate_limited: 0, too_many_concurrent: 0 });
    expect(sb.limits.peakInFlight(ADMIN_KEY_ID)).toBeLessThanOrEqual(4);
    expect(w.client.limiterState().peakInFlight).toBe(4);
    // Writes, upstream and thread calls each fit their own bucket's first window: none waits for the reads.
    const lastRead = Math.max(...done.read!);
    for (const k of ['write', 'upstream', 'thread']) expect(Math.max(...done[k]!)).toBeLessThan(lastRead);
    await w.client.close();
  });
});

describe('Limits: the thread figure (30 per minute) meters get_conversation and download_attachment', () => {
  it('a conversation call spends the read and the thread bucket; a burst of 2× the thread figure gives zero 429', async () => {
    const w = onClock({ limits: LIMITS });
    await fresh(w);
    const ids = leadIds.slice(0, 2 * LIMITS.thread);
    const results = await w.turner.settle(Promise.all(ids.map((id) => w.client.call('get_conversation', { path: { workspace: 'acme', lead_id: id } }))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results[0]!.buckets).toEqual(['read', 'thread']);
    expect(w.rejected().rate_limited).toBe(0);
    expect(windowsOf(results)).toBeLessThanOrEqual(2);
    await w.client.close();
  });

  it('include=counts moves get_workspace to the upstream bucket, include=sdr_notes moves get_lead there', async () => {
    const w = onClock({ limits: LIMITS });
    const counts = await w.client.call('get_workspace', { path: { workspace: 'acme' }, query: { include: ['counts'] } });
    expect(counts.buckets).toEqual(['upstream']);
    expect(counts.headers['x-ratelimit-bucket']).toBe('upstream');
    const plain = await w.client.call('get_workspace', { path: { workspace: 'acme' } });
    expect(plain.buckets).toEqual(['read']);
    const sdr = await w.client.call('get_lead', { path: { workspace: 'acme', lead_id: leadIds[0]! }, query: { include: ['sdr_notes'] } });
    expect(sdr.buckets).toEqual(['upstream']);
    await w.client.close();
  });
});

describe('Limits come from GET /v1/me rate_limits when present, else the spec figures', () => {
  it('before any header the buckets follow me (the sandbox reports what it enforces); the caller may cap a bucket lower', async () => {
    const w = onClock({ limits: { write: 3 } });
    expect(w.client.limiterState().buckets.find((b) => b.bucket === 'write')!.limit).toBe(3);
    await w.client.call('list_members', { path: { workspace: 'acme' } });
    const state = w.client.limiterState();
    const upstream = state.buckets.find((b) => b.bucket === 'upstream')!;
    expect(upstream).toMatchObject({ limit: LIMITS.upstream, limitSource: 'me' });
    // me says 4 writes; the caller's ceiling of 3 still wins.
    expect(state.buckets.find((b) => b.bucket === 'write')!.limit).toBe(3);
    expect(state.maxConcurrent).toBe(4);
    await w.client.close();
  });
});
