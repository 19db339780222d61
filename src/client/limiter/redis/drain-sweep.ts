import type Bottleneck from 'bottleneck';

/** What this relies on in bottleneck: a test fails when the version or the member changes. */
export const DRAIN_SWEEP = {
  version: '2.19.5',
  targets: [{ module: 'bottleneck/lib/Bottleneck.js', member: '_drainAll', fingerprint: '0bad9af24ea32e51' }],
} as const;

interface Drainable {
  queued(): number;
  _drainAll(capacity?: number): Promise<unknown>;
}

/**
 * A clustered bottleneck runs the calls it holds in its own queue only when a message says
 * capacity came back (a refill, a freed slot), and Redis pub/sub delivers at most once: a
 * message lost while the subscriber reconnects, or a subscription that never came back, left
 * those calls waiting for good while the shared bucket had tokens. Every `everyMs`, each
 * limiter that holds calls tries to start them, as that message would have made it do.
 * A start still goes through bottleneck's own script, which takes a token only if Redis has one.
 */
export function sweepQueued(limiters: () => readonly Bottleneck[], everyMs: number, onError: (e: unknown) => void): () => void {
  const timer = setInterval(() => {
    for (const l of limiters()) {
      const d = l as unknown as Drainable;
      if (d.queued() > 0) d._drainAll().catch(onError);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
