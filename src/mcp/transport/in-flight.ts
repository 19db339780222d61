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

/** After the drain's wait, how long the calls cancelled then may take to send their "cancelled, not sent" answers. */
export const CANCEL_GRACE_MS = 2_000;

/**
 * Shutdown in the same order on every transport: wait for the calls in flight; when the wait
 * runs out, cancel what is still queued (`cancelQueued`, e.g. closing the API clients, whose
 * queued calls then answer "cancelled before it was sent") and let those answers go out.
 */
export async function drainCalls(inFlight: InFlight, timeoutMs: number, cancelQueued: () => Promise<void>): Promise<void> {
  if (await inFlight.settled(timeoutMs)) return;
  await cancelQueued();
  await inFlight.settled(CANCEL_GRACE_MS);
}
