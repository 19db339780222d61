import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplyInboxClient } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { atWindowStart, client, sandbox } from './helpers.js';

const WINDOW = 1000;
let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: WINDOW, bucketLimits: { read: 10 } });
});
afterAll(() => sb.close());

const ws = { workspace: 'acme' };
const members = (c: ReplyInboxClient) => c.call<{ data: { id: string }[] }>('list_members', { path: ws });

describe('Limits: a second client spending the same key\'s bucket behind our back', () => {
  it('we meet 429 rate_limited, drain the bucket, refill after retry-after, and lose nothing', async () => {
    const ours = client(sb);
    const theirs = client(sb);
    await atWindowStart(WINDOW);
    await ours.client.me();
    await atWindowStart(WINDOW);
    // The other process takes all but one read of this window; our client cannot know.
    await Promise.all(Array.from({ length: 9 }, () => members(theirs.client)));
    const t = Date.now();
    const results = await Promise.all(Array.from({ length: 12 }, () => members(ours.client)));
    expect(ours.rejected().rate_limited).toBeGreaterThan(0);
    expect(ours.events.some((e) => e.type === 'refill')).toBe(true);
    const expected = (await members(theirs.client)).data.data.map((m) => m.id);
    for (const r of results) expect(r.data.data.map((m) => m.id)).toEqual(expected);
    expect(results.some((r) => r.attempts > 1)).toBe(true);
    // 1 left in the first window, 10 in the next: the twelfth call needs a third window at most.
    expect(Date.now() - t).toBeLessThan(3 * WINDOW + 500);
    await Promise.all([ours.client.close(), theirs.client.close()]);
  });

  it('a 429 whose retry-after lies beyond the caller\'s deadline fails at once with rate_limited and retry_after', async () => {
    const ours = client(sb, { discoverLimits: false });
    const theirs = client(sb, { discoverLimits: false });
    await atWindowStart(WINDOW);
    await Promise.all(Array.from({ length: 10 }, () => members(theirs.client)));
    const t = Date.now();
    const err = await ours.client.call('list_members', { path: ws, deadlineMs: 200 }).catch((e: unknown) => e);
    expect(Date.now() - t).toBeLessThan(180);
    expect(err).toMatchObject({ kind: 'api', status: 429, code: 'rate_limited', attempts: 1 });
    expect((err as { retry_after: number }).retry_after).toBeGreaterThanOrEqual(1);
    await Promise.all([ours.client.close(), theirs.client.close()]);
  });
});
