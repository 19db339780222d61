import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplyInboxClient } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { ADMIN_KEY_ID, CLOCK_START, client, sandboxOn } from './helpers.js';

const WINDOW = 1000;
let sb: Sandbox;
/**
 * The sandbox and both clients run on one clock this file moves: a window turns over only when
 * a test says so, never between the other client's burst and ours, however slow the machine.
 */
const clock = new ManualClock(CLOCK_START);
const nextWindow = () => clock.advance((Math.floor(clock.now() / WINDOW) + 1) * WINDOW + 15 - clock.now());
beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: { read: 10 } });
});
afterAll(() => sb.close());

const ws = { workspace: 'acme' };
const members = (c: ReplyInboxClient) => c.call('list_members', { path: ws });

describe("Limits: a second client spending the same key's bucket behind our back", () => {
  it('we meet 429 rate_limited, drain the bucket, refill after retry-after, and lose nothing', async () => {
    const ours = client(sb, { clock });
    const theirs = client(sb, { clock });
    nextWindow();
    await ours.client.me();
    nextWindow();
    // The other process takes all but one read of this window; our client cannot know.
    await Promise.all(Array.from({ length: 9 }, () => members(theirs.client)));
    // Our burst meets 429s; the client's waits for the refill are its own business, so time moves
    // a tenth of a window whenever nothing else does.
    const results = await clock.settle(Promise.all(Array.from({ length: 12 }, () => members(ours.client))), WINDOW / 10);
    expect(ours.rejected().rate_limited).toBeGreaterThan(0);
    expect(ours.events.some((e) => e.type === 'refill')).toBe(true);
    const expected = (await members(theirs.client)).data.data.map((m) => m.id);
    for (const r of results) expect(r.data.data.map((m) => m.id)).toEqual(expected);
    expect(results.some((r) => r.attempts > 1)).toBe(true);
    await Promise.all([ours.client.close(), theirs.client.close()]);
  });

  it("a 429 whose retry-after lies beyond the caller's deadline fails at once with rate_limited and retry_after", async () => {
    const ours = client(sb, { clock, discoverLimits: false });
    const theirs = client(sb, { clock, discoverLimits: false });
    nextWindow();
    await Promise.all(Array.from({ length: 10 }, () => members(theirs.client)));
    const refusedBefore = sb.limits.refusals(ADMIN_KEY_ID).rate_limited;
    const err = await ours.client.call('list_members', { path: ws, deadlineMs: 200 }).catch((e: unknown) => e);
    // One request, refused once: waiting for the window would have ended in a timeout instead.
    expect(err).toMatchObject({ kind: 'api', status: 429, code: 'rate_limited', attempts: 1 });
    expect((err as { retry_after: number }).retry_after).toBeGreaterThanOrEqual(1);
    expect(sb.limits.refusals(ADMIN_KEY_ID).rate_limited).toBe(refusedBefore + 1);
    await Promise.all([ours.client.close(), theirs.client.close()]);
  });
});
