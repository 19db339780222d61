/**
 * Time as the limiter, the live watcher and the keep-alive read it, passed in so a test can
 * drive it. The default reads Node's timers at each call, so vitest's fake timers drive it too.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
  setInterval(fn: () => void, ms: number): Timer;
  clearInterval(timer: Timer | undefined): void;
}

/** What a clock's timers return: Node's Timeout, kept opaque beyond `unref`. */
export interface Timer {
  unref(): unknown;
}

/** Resolves once `ms` have passed on `clock`; rejects with the signal's reason if it is aborted first. */
export function wait(clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout | undefined),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (t) => clearInterval(t as NodeJS.Timeout | undefined),
};
