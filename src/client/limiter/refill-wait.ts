import type { StoreBucket } from './bucket-store.js';
import type { LimiterEvent } from './types.js';

/**
 * Tells when the limiter can do nothing until a window turns: no call is in flight and every
 * queued call waits in the queue of a bucket that is empty until its refill. Said once per
 * such wait (a 'waiting_for_refill' event), so a log or a test driving the clock knows that
 * the next thing to happen is the refill.
 */
export class RefillWait<B extends StoreBucket> {
  /** Queued calls waiting in each bucket's queue. */
  private readonly parked = new Map<B, number>();
  private parkedTotal = 0;
  private told = false;

  constructor(
    /** When b, now empty, gives tokens again (epoch ms); null when it has tokens or nobody knows: no wait then. */
    private readonly refillAt: (b: B) => number | null,
    private readonly emit: (e: LimiterEvent) => void,
  ) {}

  /** A queued call is handed to b's queue; the function returned says it left (a token, or it surfaced to be dropped, or the queue failed it). */
  park(b: B): () => void {
    this.parked.set(b, (this.parked.get(b) ?? 0) + 1);
    this.parkedTotal++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.parked.set(b, this.parked.get(b)! - 1);
      this.parkedTotal--;
      this.told = false;
    };
  }

  /** Something that may start a wait happened: tell it if the limiter now waits for a refill. */
  check(inFlight: number, waiting: number): void {
    if (this.told || inFlight > 0 || waiting === 0 || this.parkedTotal < waiting) return;
    const buckets: B[] = [];
    let refillAt = Number.POSITIVE_INFINITY;
    for (const [b, n] of this.parked) {
      if (n === 0) continue;
      const at = this.refillAt(b);
      if (at === null) return;
      buckets.push(b);
      refillAt = Math.min(refillAt, at);
    }
    this.told = true;
    this.emit({ type: 'waiting_for_refill', buckets: buckets.map((b) => b.bucket), queued: waiting, refillAt });
  }
}
