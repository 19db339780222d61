import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { CLOCK_START, client, sandboxOn } from './helpers.js';

const WINDOW = 1000;
let sb: Sandbox;
/**
 * The sandbox and the clients run on one clock: the retries' pauses and any wait for a refill
 * are the client's own business here, so time moves a tenth of a window whenever nothing else does.
 */
const clock = new ManualClock(CLOCK_START);
beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, faults: 'reset=0.2,upstream_error=0.3' });
});
afterAll(() => sb.close());

const ws = { workspace: 'acme' };

describe('Retry policy: GET retried on 429, 502, 503 and connection errors, with backoff and jitter', () => {
  it('reads recover from dropped connections and upstream_error', async () => {
    const { client: c } = client(sb, { clock, retry: { maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 40 } });
    const before = { ...sb.faults.injected };
    const reads = Array.from({ length: 30 }, () => c.call('list_members', { path: ws }));
    // upstream_error hits 3 in 10 of these: 6 missed it altogether one run in eight (0.7^6), as a CI
    // run at load 16 found; 20 miss it one run in 1,250 (0.7^20), with the upstream bucket's refills on the clock.
    const upstream = Array.from({ length: 20 }, () => c.call('get_workspace', { path: ws, query: { include: ['counts'] } }));
    const results = await clock.settle(Promise.all([...reads, ...upstream]), WINDOW / 10);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.slice(30).every((r) => typeof (r.data as { counts?: unknown }).counts === 'object')).toBe(true);
    // Faults did hit, and were absorbed by retries.
    expect(sb.faults.injected.upstream_error - before.upstream_error).toBeGreaterThan(0);
    expect(sb.faults.injected.reset_before + sb.faults.injected.reset_after).toBeGreaterThan(before.reset_before + before.reset_after);
    expect(results.some((r) => r.attempts > 1)).toBe(true);
    await c.close();
  });
});

describe('Tasks: POST is not idempotent (a retry creates a second task) — a write whose outcome is unknown is never resent', () => {
  it('a burst of create_task calls never creates a duplicate, and each unknown outcome says how to check', async () => {
    const { client: c } = client(sb, { clock, retry: { maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 40 } });
    const lead = sb.store.leads.inGroup('acme')[3]!;
    const tag = 'burst';
    const n = 30;
    const outcomes = await clock.settle(
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          c.call('create_task', { path: ws, body: { lead_id: lead.id, notes: `${tag}-${i}` } }).then(
            (r) => ({ ok: true as const, id: String(r.data.id), status: r.status, attempts: r.attempts }),
            (e: unknown) => ({ ok: false as const, error: e }),
          ),
        ),
      ),
      WINDOW / 10,
    );
    const tasks = [...sb.store.tasks.all()].filter((t) => t.notes?.startsWith(`${tag}-`));
    const perCall = new Map<string, number>();
    for (const t of tasks) perCall.set(t.notes!, (perCall.get(t.notes!) ?? 0) + 1);
    expect(Math.max(...perCall.values())).toBe(1);
    const unknown = outcomes.filter((o) => !o.ok);
    expect(unknown.length).toBeGreaterThan(0);
    for (const o of unknown) {
      expect(o.error).toBeInstanceOf(OutcomeUnknownError);
      expect(o.error).toMatchObject({ code: 'outcome_unknown', endpoint: 'create_task', safe_to_repeat: false });
      expect((o.error as OutcomeUnknownError).check).toContain(`list_tasks (workspace=acme lead_id=${lead.id})`);
    }
    for (const o of outcomes) if (o.ok) expect(o).toMatchObject({ status: 201, attempts: 1 });
    // Every success is one task; an unknown outcome is at most one.
    const succeeded = outcomes.filter((o) => o.ok).length;
    expect(tasks.length).toBeGreaterThanOrEqual(succeeded);
    expect(tasks.length).toBeLessThanOrEqual(n);
    await c.close();
  });
});
