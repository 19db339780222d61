/**
 * The calls a transport has taken and not yet answered, so a shutdown can wait for their
 * answers instead of dropping them (both transports drain through this).
 */
export class InFlight {
  private n = 0;
  private readonly waiters = new Set<() => void>();

  get count(): number {
    return this.n;
  }

  start(): void {
    this.n++;
  }

  end(): void {
    this.n = Math.max(0, this.n - 1);
    if (this.n === 0) for (const done of [...this.waiters]) done();
  }

  /** Resolves true once nothing is in flight, or false after `timeoutMs`. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.n === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(done);
    });
  }
}

/**
 * After the drain's time, how long the calls it ended may take to send their answers ("cancelled,
 * not sent", or outcome_unknown for a write cut at the API). Within EXIT_GRACE_MS: what is left
 * of that is for closing sessions and connections.
 */
export const CANCEL_GRACE_MS = 1_500;

/** The process is gone this long after the drain's time at the latest (a backstop, if closing hangs). */
export const EXIT_GRACE_MS = 2_000;

/**
 * Shutdown in the same order on every transport: wait for the calls in flight; when the wait
 * runs out, end every call still under way (`endCalls`: closing the API clients, whose queued
 * calls then answer "cancelled before it was sent" and whose calls still at the API are cut) and
 * let those answers go out, within CANCEL_GRACE_MS whatever `endCalls` waits for.
 */
export async function drainCalls(inFlight: InFlight, timeoutMs: number, endCalls: () => Promise<void>): Promise<void> {
  if (await inFlight.settled(timeoutMs)) return;
  const until = Date.now() + CANCEL_GRACE_MS;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CANCEL_GRACE_MS);
  });
  await Promise.race([endCalls().catch(() => undefined), graceOver]);
  clearTimeout(timer);
  await inFlight.settled(Math.max(0, until - Date.now()));
}
