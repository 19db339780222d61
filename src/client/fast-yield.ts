import type Bottleneck from 'bottleneck';

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
