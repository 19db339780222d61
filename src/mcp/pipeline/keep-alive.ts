import { type Clock, systemClock } from '../../clock.js';

/** How often a call that is still running tells a client that asked for progress that it is alive. */
export const KEEP_ALIVE_MS = 10_000;

/**
 * While a tool call runs longer than `everyMs` (queued behind a spent bucket, or a slow API),
 * send a progress notification each period, so a client that resets its request timeout on
 * progress does not give up on a call that will still answer. Returns the way to stop.
 */
export function keepAlive(send: (n: number, message: string) => Promise<void>, everyMs = KEEP_ALIVE_MS, clock: Clock = systemClock): () => void {
  let n = 0;
  const timer = clock.setInterval(() => {
    n++;
    void send(n, `still working (${Math.round((n * everyMs) / 1000)} s): waiting for the rate limit or the API`).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clock.clearInterval(timer);
}
