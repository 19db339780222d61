import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LimiterState } from '../../src/client/index.js';
import type { Clock } from '../../src/clock.js';
import { type InboxChange, InboxWatch, type WatchApi } from '../../src/mcp/live/inbox-watch.js';
import { type ChangeBus, SharedWatch, changeOf } from '../../src/mcp/live/shared-watch.js';
import { type KeyRecords, MemoryRecords } from '../../src/mcp/writes/records.js';
import { standInApi } from '../helpers/stand-in-api.js';

/**
 * Issue 29, item 4: with --redis the instances of a key poll each workspace once between them.
 * Here the instances are watches in one process that share a key's records (MemoryRecords,
 * expired by the same fake clock that drives the watches' timers, as Redis would expire them)
 * and a change bus: what Redis gives them in test/cluster/live-instances.test.ts.
 */

const log = pino({ level: 'silent' });
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const INTERVAL = 1_000;
const LEASE = 3_000;

/** One inbox the API answers from, whichever instance asks; each instance's requests are counted apart. */
function inbox(readLimit = 1_200) {
  let rows: { id: string; last_message_at: string }[] = [{ id: 'lead_a', last_message_at: '2026-11-20T10:00:00Z' }];
  const apiOf = () => {
    const calls: { workspace: string; query: Record<string, unknown> }[] = [];
    const api: WatchApi = {
      ...standInApi(async (_name, req) => {
        calls.push({ workspace: String(req.path?.workspace), query: req.query ?? {} });
        const since = req.query?.updated_since as string | undefined;
        const data = since ? rows.filter((r) => Date.parse(r.last_message_at) > Date.parse(since)) : rows.slice(0, 1);
        return { data: { object: 'list', data, has_more: false, next_cursor: null } };
      }),
      limiterState: () =>
        ({
          buckets: [{ bucket: 'read', limitSource: 'spec', outstanding: 0, drained: false, limit: readLimit, available: readLimit, queued: 0 }],
          inFlight: 0,
          peakInFlight: 0,
          maxConcurrent: 8,
          windowEnd: Date.now() + 200,
        }) as unknown as LimiterState,
    };
    return { api, calls };
  };
  return { apiOf, reply: (id: string, at: string) => (rows = [{ id, last_message_at: at }, ...rows]) };
}

/** Pub/sub in memory: a message reaches every subscriber of its channel, a moment later as Redis delivers it. */
class MemoryBus implements ChangeBus {
  private readonly subs = new Map<string, Set<(m: string) => void>>();
  down = false;

  async publish(channel: string, message: string): Promise<void> {
    if (this.down) throw new Error('bus down');
    for (const h of [...(this.subs.get(channel) ?? [])]) queueMicrotask(() => h(message));
  }

  async subscribe(channel: string, onMessage: (m: string) => void): Promise<() => void> {
    if (this.down) throw new Error('bus down');
    const set = this.subs.get(channel) ?? new Set();
    set.add(onMessage);
    this.subs.set(channel, set);
    return () => set.delete(onMessage);
  }
}

/** The key's records as Redis holds them for every instance; `down` makes each call fail as a lost Redis does. */
function sharedRecords() {
  const memory = new MemoryRecords(() => Date.now());
  const state = { down: false };
  const records = new Proxy(memory, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => (state.down ? Promise.reject(new Error('redis down')) : (v as (...a: unknown[]) => unknown).apply(target, args));
    },
  }) as KeyRecords;
  return { records, state };
}

/** The system clock (vitest's fake timers drive it) until kill(): then no timer of its fires, as in a process that died. */
function mortalClock(): { clock: Clock; kill: () => void } {
  let dead = false;
  const clock: Clock = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(() => !dead && fn(), ms),
    clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout | undefined),
    setInterval: (fn, ms) => setInterval(() => !dead && fn(), ms),
    clearInterval: (t) => clearInterval(t as NodeJS.Timeout | undefined),
  };
  return { clock, kill: () => void (dead = true) };
}

/** Instances of one key: each its own watch, API counter and clock, all meeting in one store and bus. */
function instances(n: number, readLimit = 1_200) {
  const box = inbox(readLimit);
  const { records, state } = sharedRecords();
  const bus = new MemoryBus();
  const made = Array.from({ length: n }, () => {
    const { api, calls } = box.apiOf();
    const { clock, kill } = mortalClock();
    const peers = new SharedWatch(records, bus, { channel: (ws) => `changes:${ws}` });
    const watch = new InboxWatch({ api, intervalMs: INTERVAL, leaseMs: LEASE, log, clock, peers });
    const heard: InboxChange[] = [];
    return { watch, calls, kill, heard, listen: (ws = 'acme') => watch.listen(ws, (c) => heard.push(c)) };
  });
  const down = (d: boolean) => {
    state.down = d;
    bus.down = d;
  };
  return { box, made, down };
}

/** Two instances of a key whose listeners hear acme, the first to listen first (so it takes the lease). */
async function pair() {
  const { box, made, down } = instances(2);
  const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
  const stopA = await a.listen();
  await b.listen();
  return { box, a, b, down, stopA };
}

describe('the lease: one watch of a key polls a workspace, until it lapses or is given up', () => {
  it('the first takes it, another is refused, the holder renews it, and once it lapses another takes it', async () => {
    const { records } = sharedRecords();
    const bus = new MemoryBus();
    const [a, b] = [new SharedWatch(records, bus, { channel: (w) => w }), new SharedWatch(records, bus, { channel: (w) => w })];
    expect(await a.lead('acme', LEASE)).toBe(true);
    expect(await b.lead('acme', LEASE)).toBe(false);
    await advance(LEASE - 1);
    // Renewed for a whole lease from now: still a's when the first lease would have ended.
    expect(await a.lead('acme', LEASE)).toBe(true);
    await advance(LEASE - 1);
    expect(await b.lead('acme', LEASE)).toBe(false);
    await advance(2);
    expect(await b.lead('acme', LEASE)).toBe(true);
    // The lapsed holder does not take it back by renewing.
    expect(await a.lead('acme', LEASE)).toBe(false);
    // Given up, it is free at once; another's is not given up for it.
    await a.resign('acme');
    expect(await a.lead('acme', LEASE)).toBe(false);
    await b.resign('acme');
    expect(await a.lead('acme', LEASE)).toBe(true);
  });

  it('the budget counts the polls of the last minute, whichever watch took them', async () => {
    const { records } = sharedRecords();
    const bus = new MemoryBus();
    const [a, b] = [new SharedWatch(records, bus, { channel: (w) => w }), new SharedWatch(records, bus, { channel: (w) => w })];
    const start = Date.now();
    expect(await a.spend(3, start)).toBe(0);
    await advance(10_000);
    expect(await b.spend(3, Date.now())).toBe(0);
    expect(await a.spend(3, Date.now())).toBe(0);
    // Three in the minute: the fourth waits until the first is a minute old.
    expect(await b.spend(3, Date.now())).toBe(60_000 - 10_000);
    await advance(50_000);
    expect(await b.spend(3, Date.now())).toBe(0);
    expect(await a.spend(3, Date.now())).toBe(10_000);
  });

  it('a message on the bus is a change only when another watch sent it for that workspace', () => {
    const msg = (o: unknown) => JSON.stringify(o);
    expect(changeOf(msg({ from: 'x', workspace: 'acme', leads: ['lead_1'], since: 's' }), 'acme', 'me')).toEqual({
      workspace: 'acme',
      leads: ['lead_1'],
      since: 's',
    });
    expect(changeOf(msg({ from: 'me', workspace: 'acme', leads: ['lead_1'] }), 'acme', 'me')).toBeNull();
    expect(changeOf(msg({ from: 'x', workspace: 'beta', leads: ['lead_1'] }), 'acme', 'me')).toBeNull();
    expect(changeOf(msg({ from: 'x', workspace: 'acme', leads: [1] }), 'acme', 'me')).toBeNull();
    expect(changeOf('not json', 'acme', 'me')).toBeNull();
  });
});

describe('with peers, one watch polls each workspace for the listeners of every instance', () => {
  it('the second instance reads nothing; a reply the first finds reaches the listeners of both', async () => {
    const { box, a, b } = await pair();
    expect(a.calls.map((c) => c.query)).toEqual([{ limit: 100 }]);
    box.reply('lead_b', '2026-11-21T10:00:00Z');
    await advance(INTERVAL);
    const change = { workspace: 'acme', leads: ['lead_b'], since: '2026-11-20T10:00:00Z' };
    expect(a.heard).toEqual([change]);
    expect(b.heard).toEqual([change]);
    await advance(10 * INTERVAL);
    expect(a.calls).toHaveLength(12);
    expect(b.calls).toEqual([]);
    expect(b.heard).toHaveLength(1);
  });

  it("a change one instance's write tool made reaches the listeners of the others at once", async () => {
    const { a, b } = await pair();
    b.watch.touched('acme', ['lead_x']);
    await advance(0);
    expect(a.heard).toEqual([{ workspace: 'acme', leads: ['lead_x'] }]);
    expect(b.heard).toEqual([{ workspace: 'acme', leads: ['lead_x'] }]);
  });

  it('the key spends one budget: two instances leading a workspace each poll 12 times a minute between them, not 12 each', async () => {
    const { made } = instances(2, 120);
    const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
    // a leads acme and b leads beta; each also listens to the other's.
    await a.listen('acme');
    await b.listen('beta');
    await a.listen('beta');
    await b.listen('acme');
    await advance(59_000);
    const all = [...a.calls, ...b.calls];
    expect(all).toHaveLength(12);
    expect(new Set(a.calls.map((c) => c.workspace))).toEqual(new Set(['acme']));
    expect(new Set(b.calls.map((c) => c.workspace))).toEqual(new Set(['beta']));
    await advance(60_000);
    expect(a.calls.length + b.calls.length).toBe(24);
  });
});

describe('the lease passes on: a dead holder within a lease, a holder left by its listeners at once', () => {
  it('the holder dies: another instance takes over when its lease lapses, from the mark it left, and replies still arrive', async () => {
    const { box, a, b } = await pair();
    box.reply('lead_b', '2026-11-21T10:00:00Z');
    await advance(INTERVAL);
    a.kill();
    const polled = a.calls.length;
    box.reply('lead_c', '2026-11-22T10:00:00Z');
    // Within a lease and a turn, b polls, going on from a's mark: lead_b is not told again.
    await advance(LEASE + INTERVAL);
    expect(a.calls).toHaveLength(polled);
    expect(b.calls.length).toBeGreaterThan(0);
    expect(b.calls[0]!.query).toMatchObject({ updated_since: '2026-11-21T10:00:00Z' });
    expect(b.heard.map((c) => c.leads)).toEqual([['lead_b'], ['lead_c']]);
  });

  it("the holder's last listener leaves: it gives the lease up and another instance polls at its next turn", async () => {
    const { a, b, stopA } = await pair();
    await advance(INTERVAL);
    const polled = a.calls.length;
    stopA();
    await advance(0);
    await advance(INTERVAL);
    expect(b.calls).toHaveLength(1);
    expect(b.calls[0]!.query).toMatchObject({ updated_since: '2026-11-20T10:00:00Z' });
    await advance(5 * INTERVAL);
    expect(a.calls).toHaveLength(polled);
    expect(b.calls).toHaveLength(6);
  });
});

describe('Redis down: each instance polls for its own listeners until Redis answers again', () => {
  it('while down both poll and each tells its own listeners; once back, one polls again', async () => {
    const { box, a, b, down } = await pair();
    await advance(INTERVAL);
    expect(b.calls).toEqual([]);
    down(true);
    await advance(2 * INTERVAL);
    box.reply('lead_b', '2026-11-21T10:00:00Z');
    await advance(2 * INTERVAL);
    expect(b.calls.length).toBeGreaterThan(0);
    expect(a.heard.map((c) => c.leads)).toEqual([['lead_b']]);
    expect(b.heard.map((c) => c.leads)).toEqual([['lead_b']]);
    down(false);
    // The lease a held lapsed meanwhile: whoever takes it first polls, the other only hears.
    await advance(LEASE + INTERVAL);
    const [ac, bc] = [a.calls.length, b.calls.length];
    await advance(5 * INTERVAL);
    expect([a.calls.length - ac, b.calls.length - bc].sort()).toEqual([0, 5]);
  });
});
