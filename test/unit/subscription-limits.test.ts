import type { Server } from '@modelcontextprotocol/server';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import type { LimiterState } from '../../src/client/index.js';
import type { InboxAccess } from '../../src/mcp/resources-prompts/access.js';
import { InboxWatch, LINGER_MS, type WatchApi } from '../../src/mcp/live/inbox-watch.js';
import { MAX_SUBSCRIPTIONS, Subscriptions } from '../../src/mcp/live/subscriptions.js';
import { standInApi } from '../helpers/stand-in-api.js';

const log = pino({ level: 'silent' });
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A fake API with a read bucket of 120 a minute: leads lead_0…lead_499 exist; every request is counted by name. */
function fakeApi() {
  const calls: string[] = [];
  const api: WatchApi = {
    ...standInApi(async (name, req) => {
      calls.push(name);
      if (name === 'get_lead') {
        const n = Number(req.path?.lead_id?.slice(5));
        if (!(n >= 0 && n < 500)) throw new ApiError({ status: 404, code: 'not_found', message: 'no such lead', endpoint: name });
        return { data: { id: req.path?.lead_id } };
      }
      return { data: { object: 'list', data: [{ id: 'lead_0', last_message_at: '2026-11-20T10:00:00Z' }], has_more: false, next_cursor: null } };
    }),
    limiterState: () =>
      ({
        buckets: [{ bucket: 'read', limitSource: 'spec', outstanding: 0, drained: false, limit: 120, available: 120, queued: 0 }],
        inFlight: 0,
        peakInFlight: 0,
        maxConcurrent: 4,
        windowEnd: Date.now() + 200,
      }) as unknown as LimiterState,
  };
  return { api, calls, count: (name: string) => calls.filter((c) => c === name).length };
}

const access: InboxAccess = {
  api: standInApi(async () => ({ data: null })),
  workspaces: () => ['acme', 'beta'],
  defaultWorkspace: () => 'acme',
  scopes: () => null,
  failed: () => undefined,
};
const fakeServer = () => ({ setRequestHandler: () => undefined, sendResourceUpdated: async () => undefined }) as unknown as Server;

function session(watch: InboxWatch) {
  return Subscriptions.ofSession(fakeServer(), watch, access, log);
}

describe('subscriptions per session are capped', () => {
  it(`the ${MAX_SUBSCRIPTIONS + 1}th subscription is refused, naming the cap and the workspace-wide subscription`, async () => {
    const f = fakeApi();
    const s = session(new InboxWatch({ api: f.api, intervalMs: 30_000, log }));
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await s.subscribe(`inbox://acme/leads/lead_${i}`);
    expect(s.size).toBe(MAX_SUBSCRIPTIONS);
    await expect(s.subscribe('inbox://acme/leads/lead_200')).rejects.toThrow(/holds 100 subscriptions.*inbox:\/\/acme\/leads /);
    expect(s.size).toBe(MAX_SUBSCRIPTIONS);
    // Subscribing again to a URI already held is no new subscription.
    await s.subscribe('inbox://acme/leads/lead_3');
    await s.unsubscribe('inbox://acme/leads/lead_3');
    await s.subscribe('inbox://acme/leads/lead_200');
    expect(s.size).toBe(MAX_SUBSCRIPTIONS);
    await s.close();
  });
});

describe('a lead that does not exist cannot be subscribed to', () => {
  it('one get_lead read refuses it; a lead checked once (or seen by a poll) costs no read again', async () => {
    const f = fakeApi();
    const s = session(new InboxWatch({ api: f.api, intervalMs: 30_000, log }));
    await expect(s.subscribe('inbox://acme/leads/lead_9999')).rejects.toThrow(/no lead lead_9999 in the workspace 'acme'/);
    await expect(s.subscribe('inbox://acme/leads/lead_9999/conversation')).rejects.toThrow(/no lead/);
    expect(s.size).toBe(0);
    expect(f.count('get_lead')).toBe(2);
    await s.subscribe('inbox://acme/leads/lead_7');
    await s.subscribe('inbox://acme/leads/lead_7/conversation');
    // lead_0 came in the watch's baseline read: known without a get_lead.
    await s.subscribe('inbox://acme/leads/lead_0');
    expect(f.count('get_lead')).toBe(3);
    expect(s.size).toBe(3);
    await s.close();
  });
});

describe('subscribe/unsubscribe churn stays inside the watch budget', () => {
  it('100 subscribe/unsubscribe rounds in 10 s send at most 12 list_leads (10% of 120 a minute)', async () => {
    const f = fakeApi();
    const watch = new InboxWatch({ api: f.api, intervalMs: 5_000, log });
    const s = session(watch);
    for (let i = 0; i < 100; i++) {
      await s.subscribe(`inbox://${i % 2 ? 'acme' : 'beta'}/leads`);
      await s.unsubscribe(`inbox://${i % 2 ? 'acme' : 'beta'}/leads`);
      await advance(100);
    }
    expect(f.count('list_leads')).toBeLessThanOrEqual(watch.cap);
    await s.close();
  });

  it('a workspace left by its last listener is not polled, is kept for a while, and is then forgotten', async () => {
    const f = fakeApi();
    const watch = new InboxWatch({ api: f.api, intervalMs: 5_000, log });
    const stop = await watch.listen('acme', () => undefined);
    expect(f.count('list_leads')).toBe(1);
    stop();
    await advance(LINGER_MS / 2);
    // Nobody listens: no polls, but the state is held.
    expect(f.count('list_leads')).toBe(1);
    expect(watch.watched).toEqual([]);
    expect(watch.held).toBe(1);
    // Coming back within the linger needs no new baseline; polling resumes at the interval.
    const again = await watch.listen('acme', () => undefined);
    expect(f.count('list_leads')).toBe(1);
    await advance(5_000);
    expect(f.count('list_leads')).toBe(2);
    again();
    await advance(LINGER_MS);
    expect(watch.held).toBe(0);
    expect(f.count('list_leads')).toBe(2);
  });
});
