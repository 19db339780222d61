import type Bottleneck from 'bottleneck';
import type { Bucket } from '../../api/enums.js';
import type { BucketState, LimiterEvent, LimitSource, Settlement } from './types.js';
import type { ServerWindow } from './server-window.js';

/** One rate bucket as the limiter sees it: a bottleneck reservoir and its limit. */
export interface StoreBucket {
  readonly bucket: Bucket;
  readonly limiter: Bottleneck;
  /** The limit we spend by (the service's, under the caller's cap). */
  readonly limit: number;
  /** The service's own figure; headers are matched against it. */
  readonly serverLimit: number;
}

/** What a store is given by the limiter that drives it. */
export interface StoreContext {
  readonly window: ServerWindow;
  emit(e: LimiterEvent): void;
  maxConcurrent(): number;
  /** The store cannot be reached: calls still waiting are answered at once. */
  down(reason: string): void;
}

/**
 * Where the key's tokens and slots are counted: in this process (local-bucket-store.ts) or in
 * Redis for every instance (redis/redis-bucket-store.ts). The Limiter runs every call the same way
 * over either; the store says how a token is taken, given back and settled.
 */
export interface BucketStore<B extends StoreBucket = StoreBucket> {
  readonly buckets: Readonly<Record<Bucket, B>>;
  /** Options every bottleneck job carries (Redis: an expiration, so a killed process frees what it held). */
  readonly jobOptions: Bottleneck.JobOptions;
  /** The key's concurrency limiter (bottleneck), built by the store so it counts where the tokens are. */
  concurrency(maxConcurrent: number): Bottleneck;
  /** Resolves once the store can take calls; never rejects (a failure is reported as an event). */
  start(concurrency: Bottleneck, maxConcurrent: number): Promise<void>;
  /**
   * The fast path: take one token of every bucket at once, synchronously, if each has one and
   * nobody waits for it, keeping the bottleneck reservoirs in step. False changes nothing.
   */
  takeNow(order: readonly B[]): boolean;
  /** A call is about to wait for a token of b. */
  beforeQueue(b: B): void;
  /** A call was answered at once, unsent: b refills only after its deadline. */
  refused(b: B): void;
  /** bottleneck gave a call a token of b. */
  taken(b: B): void;
  /** A token taken and never used. */
  giveBack(b: B): void;
  /** A bucket the call holds a token of that has since become overdrawn (step back and queue again). */
  short(held: readonly B[]): B | undefined;
  /**
   * Book an exchange's answer against the buckets it spent. May return what to call once the
   * call's tokens are freed (bottleneck's jobs for them done), which the limiter then calls.
   */
  settle(spent: readonly B[], s: Settlement): (() => void) | undefined;
  /** When b, now empty, gives tokens again (epoch ms); null when it has tokens or nobody knows. */
  refillAt(b: B): number | null;
  /** The server's window turned. */
  turn(ended: number | null): void;
  setLimit(b: B, limit: number, source: LimitSource): void;
  bucketState(b: B): BucketState;
  /** Why the store cannot take calls now (Redis down), or null when it can. */
  unavailable(): string | null;
  close(concurrency: Bottleneck): Promise<void>;
}

/** bottleneck's typings return the limiter; in fact a clustered one returns a promise that Redis settles. */
export function updateSettings(limiter: Bottleneck, settings: Bottleneck.ConstructorOptions): Promise<unknown> {
  return Promise.resolve(limiter.updateSettings(settings) as unknown);
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
