import Bottleneck from 'bottleneck';
import type { Bucket } from '../../../api/enums.js';
import { type LimitSource, RANK } from '../types.js';
import type { RedisLink } from './link.js';

/**
 * One rate bucket of a key, shared by every instance through Redis: a clustered bottleneck
 * reservoir holds the tokens left in the server's current window for all of them. A token is
 * taken atomically by bottleneck's own scripts; this class only moves the reservoir by deltas
 * (a token given back, a clamp to what the server says is left, the refill of a new window),
 * never by an absolute set, so another instance taking a token meanwhile is never lost.
 * Every read-then-move errs on the side of fewer tokens.
 */
export class SharedBucket {
  readonly limiter: Bottleneck;
  private limitValue: number;
  private source: LimitSource = 'spec';
  /** The last reservoir value this instance saw (Redis holds the truth): for state() only. */
  private seen: number;
  /** Tokens this instance took and has not settled yet (for state()). */
  outstanding = 0;
  /** A 429 emptied the bucket in this window (until the next turn). */
  drained = false;
  /** The lowest x-ratelimit-remaining of the server's current window, and when that window ends. */
  private remaining: { value: number; until: number | undefined } | null = null;

  constructor(
    readonly bucket: Bucket,
    limit: number,
    private readonly cap: number,
    store: RedisLink,
    tag: string,
    onError: (e: unknown) => void,
    private readonly now: () => number,
  ) {
    this.limitValue = limit;
    this.seen = this.limit;
    this.limiter = new Bottleneck({
      id: store.limiterId(tag, bucket),
      connection: store.connection,
      reservoir: this.limit,
      heartbeatInterval: store.heartbeatMs,
      timeout: store.idleMs,
    });
    this.limiter.on('error', onError);
    this.limiter.on('depleted', () => {
      this.seen = 0;
    });
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
  get lastSeen(): number {
    return this.seen;
  }

  /**
   * A reservoir left in Redis by an earlier configuration may hold more than our limit now.
   * Every key of the limiter gets its idle expiry, even if this key never sends a request.
   */
  async start(): Promise<void> {
    await this.limiter.ready();
    await this.clampTo(this.limit);
    // Registering leaves bottleneck's client keys without an expiry until a job's script refreshes them: a zero move does it now.
    await this.limiter.incrementReservoir(0);
  }

  /**
   * A new figure for this bucket. A lower one clamps the shared reservoir at once (two
   * instances doing so clamp to the same value); a higher one waits for the next refill.
   */
  async setLimit(limit: number, source: LimitSource): Promise<boolean> {
    if (RANK[source] < RANK[this.source] || limit === this.limitValue) {
      if (RANK[source] >= RANK[this.source]) this.source = source;
      return false;
    }
    this.limitValue = limit;
    this.source = source;
    await this.clampTo(this.limit);
    return true;
  }

  /** A token taken and never counted by the server (not sent, refused, or landed in a window already refilled). */
  async giveBack(): Promise<void> {
    this.seen = await this.limiter.incrementReservoir(1);
  }

  /** Never promise more than `max` tokens; a read-then-move that may only undershoot. */
  async clampTo(max: number): Promise<void> {
    const r = await this.limiter.currentReservoir();
    if (r !== null && r > max) this.seen = await this.limiter.incrementReservoir(max - r);
    else this.seen = r ?? this.seen;
  }

  /**
   * The server's window turned; first half of the refill: the reservoir, then the requests still
   * out (taken and not finished: they may land in the new window). Read in that order, a token
   * taken between the two reads is counted twice, never missed.
   */
  async beforeRefill(): Promise<{ reservoir: number; out: number }> {
    const reservoir = (await this.limiter.currentReservoir()) ?? 0;
    return { reservoir, out: await this.limiter.running() };
  }

  /**
   * Second half: the new window holds the limit less the requests still out and those that
   * already landed in it (read after `out`: one that finished in between is counted twice, never
   * missed). The reservoir moves by a delta from what was read, so tokens taken since still count.
   */
  async refill(read: { reservoir: number; out: number }, landed: number): Promise<number> {
    const target = Math.max(0, this.limit - read.out - landed);
    this.seen = target !== read.reservoir ? await this.limiter.incrementReservoir(target - read.reservoir) : read.reservoir;
    return this.seen;
  }

  /** What an answer of the server's current window said was left. */
  noteRemaining(value: number, until: number | undefined): void {
    const r = this.remaining;
    const same = r !== null && r.until === until && (until === undefined || this.now() < until);
    this.remaining = same ? { value: Math.min(r.value, value), until } : { value, until };
  }

  /** The tokens the server said were left in the window still running, or null when no answer of it is known. */
  remainingHint(): number | null {
    const r = this.remaining;
    if (!r || (r.until !== undefined && this.now() >= r.until)) return null;
    return r.value;
  }

  queued(): number {
    return this.limiter.queued();
  }

  async stop(): Promise<void> {
    await this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
    await this.limiter.disconnect(false);
  }
}
