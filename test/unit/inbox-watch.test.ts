import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LimiterState } from '../../src/client/index.js';
import { PollBudget } from '../../src/mcp/live/poll-budget.js';
import { type InboxChange, InboxWatch, type WatchApi } from '../../src/mcp/live/inbox-watch.js';
import { standInApi } from '../helpers/stand-in-api.js';

const log = pino({ level: 'silent' });
/** The watch's timers run on vitest's fake clock: each test moves time itself and counts polls. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A fake API: list_leads answers from `rows`, the read bucket stands as `read` says. */
function fakeApi(read: { limit: number; available: number; queued: number }) {
  const calls: Record<string, unknown>[] = [];
  let rows: { id: string; last_message_at: string }[] = [{ id: 'lead_a', last_message_at: '2026-11-20T10:00:00Z' }];
  const api: WatchApi = {
    ...standInApi(async (_name, req) => {
      calls.push(req.query ?? {});
      const since = req.query?.updated_since as string | undefined;
      const data = since ? rows.filter((r) => Date.parse(r.last_message_at) > Date.parse(since)) : rows.slice(0, 1);
      return { data: { object: 'list', data, has_more: false, next_cursor: null } };
    }),
    limiterState: () =>
      ({
        buckets: [{ bucket: 'read', limitSource: 'spec', outstanding: 0, drained: read.available === 0, ...read }],
        inFlight: 0,
        peakInFlight: 0,
        maxConcurrent: 8,
        windowEnd: Date.now() + 200,
      }) as unknown as LimiterState,
  };
  return { api, calls, reply: (id: string, at: string) => (rows = [{ id, last_message_at: at }, ...rows]) };
}

describe('the poll budget: at most its share of the read bucket a minute', () => {
  it('10% of 120 reads is 12 polls a minute; the 13th waits until the oldest leaves the minute', () => {
    let t = 0;
    const b = new PollBudget(
      () => 120,
      0.1,
      () => t,
    );
    expect(b.cap).toBe(12);
    for (let i = 0; i < 12; i++) {
      expect(b.wait()).toBe(0);
      b.spend();
      t += 1_000;
    }
    expect(b.wait()).toBe(60_000 - 12_000);
    t = 60_001;
    expect(b.wait()).toBe(0);
  });

  it('a bucket too small for a tenth still watches once a minute', () => {
    expect(new PollBudget(() => 5).cap).toBe(1);
  });
});

describe('the watch polls with updated_since and tells its listeners', () => {
  it('a lead whose newest message moved is reported once; later polls ask from the new watermark', async () => {
    const f = fakeApi({ limit: 1_200, available: 1_200, queued: 0 });
    const w = new InboxWatch({ api: f.api, intervalMs: 20, log });
    const heard: InboxChange[] = [];
    const stop = await w.listen('acme', (c) => heard.push(c));
    expect(f.calls).toEqual([{ limit: 100 }]);
    f.reply('lead_b', '2026-11-21T10:00:00Z');
    await advance(20);
    expect(heard).toEqual([{ workspace: 'acme', leads: ['lead_b'], since: '2026-11-20T10:00:00Z' }]);
    expect(f.calls[1]).toMatchObject({ updated_since: '2026-11-20T10:00:00Z', order: 'asc' });
    // Six intervals more: six polls, each from the new watermark, and nothing heard twice.
    await advance(6 * 20);
    expect(f.calls).toHaveLength(8);
    expect(f.calls.slice(2).every((q) => q.updated_since === '2026-11-21T10:00:00Z')).toBe(true);
    expect(heard).toHaveLength(1);
    stop();
    await advance(10 * 20);
    expect(f.calls).toHaveLength(8);
    expect(w.watched).toEqual([]);
  });

  it('a spent read bucket delays the poll: tool calls keep what is left', async () => {
    const read = { limit: 1_200, available: 0, queued: 0 };
    const f = fakeApi(read);
    const w = new InboxWatch({ api: f.api, intervalMs: 20, log });
    const stop = await w.listen('acme', () => undefined);
    // The first tick (20 ms) found the bucket spent and waits a second, and so on: 1,020, 2,020…
    await advance(5_010);
    // The baseline only: every poll since waited for the bucket.
    expect(f.calls).toHaveLength(1);
    read.available = 1_200;
    // The tick due at 5,020 ms polls, and the interval is 20 ms again.
    await advance(10);
    expect(f.calls).toHaveLength(2);
    await advance(3 * 20);
    expect(f.calls).toHaveLength(5);
    stop();
  });

  it('polls keep to 10% of the read bucket a minute, however short the interval', async () => {
    const f = fakeApi({ limit: 120, available: 120, queued: 0 });
    const w = new InboxWatch({ api: f.api, intervalMs: 20, log });
    const stop = await w.listen('acme', () => undefined);
    await advance(59_000);
    // The baseline and 11 polls: 12 a minute.
    expect(f.calls).toHaveLength(12);
    await advance(60_000);
    expect(f.calls).toHaveLength(24);
    stop();
  });

  it('two listeners of one workspace share one poll; the workspace is polled until the last leaves', async () => {
    const f = fakeApi({ limit: 1_200, available: 1_200, queued: 0 });
    const w = new InboxWatch({ api: f.api, intervalMs: 30, log });
    const stopA = await w.listen('acme', () => undefined);
    const stopB = await w.listen('acme', () => undefined);
    expect(f.calls).toHaveLength(1);
    stopA();
    expect(w.watched).toEqual(['acme']);
    stopB();
    expect(w.watched).toEqual([]);
  });
});
