import type Bottleneck from 'bottleneck';

/** What this patch relies on in bottleneck: a test fails when the version or the patched code changes. */
export const FAST_YIELD_PATCH = {
  version: '2.19.5',
  targets: [{ module: 'bottleneck/lib/LocalDatastore.js', member: 'yieldLoop', fingerprint: '7438cc15a74bc972' }],
} as const;

type YieldingStore = { yieldLoop?: (t?: number) => Promise<void> };

/**
 * Bottleneck's local datastore yields to the event loop with `setTimeout(0)` before each
 * submit, register, free and reservoir change; Node rounds that up to at least 1 ms, so a
 * job pays several milliseconds per limiter. Yielding with setImmediate keeps the same
 * order of operations (every step still runs in its own macrotask, behind bottleneck's
 * own submit/register locks) and the same accounting, only without the timer floor. Only
 * the zero-delay yield changes; a stored version without yieldLoop is left as it is.
 */
export function installFastYield(limiter: Bottleneck): boolean {
  const store = (limiter as unknown as { _store?: YieldingStore })._store;
  if (!store || typeof store.yieldLoop !== 'function') return false;
  const original = store.yieldLoop.bind(store);
  store.yieldLoop = (t = 0) => (t > 0 ? original(t) : new Promise<void>((resolve) => setImmediate(resolve)));
  return true;
}
