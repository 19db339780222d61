import Bottleneck from 'bottleneck';
import type { Bucket } from '../../api/enums.js';
import { type LimitSource, RANK } from './types.js';

export { type LimitSource, RANK } from './types.js';

/**
 * One rate bucket of the key: a bottleneck reservoir plus the account that steers it.
 *
 * The account estimates the tokens left in the server's current window:
 *   available = base − outstanding,  base = min(lowest x-ratelimit-remaining seen, limit − our requests counted)
 * where outstanding counts tokens that left the reservoir and have not been settled by a
 * response yet (they may still land in this window). Bottleneck's reservoir is moved only
 * by deltas of that estimate (incrementReservoir), never set absolutely, so the moment at
 * which bottleneck itself takes a token never races our bookkeeping. bottleneck's own
 * refresh timer is not used: the Limiter refills at the server's x-ratelimit-reset.
 *
 * The reservoir only matters to jobs waiting in it. While none is, the deltas add up here
 * and reach bottleneck in one step when the next job is handed to it: each step is a round
 * of bottleneck's locks, promises and generators, and calls on the fast path (which never
 * queue) made three of them each, most of the garbage a long session promoted.
 */
export class BucketAccount {
  readonly limiter: Bottleneck;
  private limitValue: number;
  private source: LimitSource;
  /** The caller's own ceiling (e.g. a key shared by two processes): the limit never exceeds it. */
  private cap: number;
  private minRemaining: number | null = null;
  private landed = 0;
  private outstandingCount = 0;
  private drainedUntil = 0;
  /** The change of `available` that bottleneck's reservoir has not been moved by yet. */
  private unsynced = 0;
  /** Jobs handed to this bucket's bottleneck that have not started: while any waits, every change reaches it at once. */
  private waitingJobs = 0;

  constructor(
    readonly bucket: Bucket,
    limit: number,
    cap = Number.POSITIVE_INFINITY,
  ) {
    this.limitValue = limit;
    this.source = 'spec';
    this.cap = cap;
    this.limiter = new Bottleneck({ reservoir: Math.min(limit, cap), id: `reply-inbox-${bucket}` });
  }

  /** The limit we spend by: the service's, under the caller's cap. */
  get limit(): number {
    return Math.min(this.limitValue, this.cap);
  }
  /** The service's own figure, as last learned; headers are matched against it. */
  get serverLimit(): number {
    return this.limitValue;
  }
  get limitSource(): LimitSource {
    return this.source;
  }
  get outstanding(): number {
    return this.outstandingCount;
  }
  /** Calls handed to this bucket that have not taken their token yet (bottleneck may not have queued them yet). */
  get waiting(): number {
    return this.waitingJobs;
  }
  get drained(): boolean {
    return this.drainedUntil > 0;
  }
  get refillsAt(): number | null {
    return this.drainedUntil > 0 ? this.drainedUntil : null;
  }

  private base(): number {
    if (this.drainedUntil > 0) return 0;
    return Math.min(this.minRemaining ?? this.limitValue, this.limit - this.landed);
  }

  /** Tokens we may still send in the current window without a 429, by our estimate. */
  available(): number {
    return this.base() - this.outstandingCount;
  }

  /** Every change goes through here: the reservoir moves by exactly the change of `available`, once a job waits for it. */
  private apply(change: () => void): void {
    const before = this.available();
    change();
    this.unsynced += this.available() - before;
    if (this.waitingJobs > 0) this.sync();
  }

  private sync(): void {
    if (this.unsynced === 0) return;
    const delta = this.unsynced;
    this.unsynced = 0;
    void this.limiter.incrementReservoir(delta);
  }

  /** A job is about to be handed to this bucket's bottleneck: its reservoir is brought up to date first. */
  queueing(): void {
    this.waitingJobs++;
    this.sync();
  }

  /** A job left the reservoir (bottleneck already took its token). */
  take(): void {
    this.waitingJobs--;
    this.outstandingCount++;
  }

  /** A token taken past bottleneck (the limiter's fast path): its reservoir is moved to match. */
  takeNow(): void {
    this.apply(() => this.outstandingCount++);
  }

  /** A token given back unused (cancelled, stepped back, or refused before being counted). */
  release(): void {
    this.apply(() => this.outstandingCount--);
  }

  /** A request settled: counted by the server in the current window or not, and what its headers said. */
  settle(counted: boolean, seen?: { limit: number | undefined; remaining: number | undefined }): void {
    this.apply(() => {
      this.outstandingCount--;
      if (counted) this.landed++;
      if (seen) {
        if (seen.limit !== undefined && seen.limit > 0) this.setLimitRaw(seen.limit, 'header');
        if (seen.remaining !== undefined) this.minRemaining = Math.min(this.minRemaining ?? Number.POSITIVE_INFINITY, seen.remaining);
      }
    });
  }

  setLimit(limit: number, source: LimitSource): boolean {
    if (RANK[source] < RANK[this.source] || limit === this.limitValue) {
      if (RANK[source] >= RANK[this.source]) this.source = source;
      return false;
    }
    this.apply(() => this.setLimitRaw(limit, source));
    return true;
  }

  private setLimitRaw(limit: number, source: LimitSource): void {
    this.limitValue = limit;
    this.source = source;
  }

  /** A 429 rate_limited: nothing is left until the server said to come back. */
  drain(until: number): void {
    this.apply(() => {
      this.drainedUntil = Math.max(this.drainedUntil, until);
    });
  }

  /** A new server window (or the end of a drain): the counts of the old window no longer apply. */
  refill(now: number): void {
    this.apply(() => {
      if (this.drainedUntil > now) return;
      this.drainedUntil = 0;
      this.minRemaining = null;
      this.landed = 0;
    });
  }

  /** Only the drain ends (its own timer); window counts stay. */
  undrain(now: number): void {
    if (this.drainedUntil === 0 || this.drainedUntil > now) return;
    this.apply(() => {
      this.drainedUntil = 0;
      this.minRemaining = null;
      this.landed = 0;
    });
  }

  queued(): number {
    return this.limiter.queued();
  }

  async stop(): Promise<void> {
    await this.limiter.stop({ dropWaitingJobs: true });
  }
}
