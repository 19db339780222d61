import type { ChangeListener, InboxChange } from './change.js';

/**
 * The other instances serving a key, as its inbox watch meets them (with --redis): one of them
 * at a time polls a workspace (it holds the workspace's lease), every poll of the key is taken
 * from one shared budget, the poller leaves where its polls stand for the next, and the changes
 * it finds reach the listeners of every instance. Each method throws when the store cannot be
 * reached; the watch then polls alone, as it does without --redis.
 */
export interface WatchPeers {
  /** Take the workspace's lease, or keep it when this watch holds it already, for `ttlMs`; false while another holds it. */
  lead(workspace: string, ttlMs: number): Promise<boolean>;
  /** Give the lease up if this watch holds it, so another instance takes over at once. */
  resign(workspace: string): Promise<void>;
  /** One poll from the key's budget of `cap` a minute: 0 when taken, else the milliseconds until one fits. */
  spend(cap: number, now: number): Promise<number>;
  /** The watermark the last poller of the workspace left, or null. */
  mark(workspace: string): Promise<string | null>;
  /** Leave the watermark for the next poller; it lasts `ttlMs` unless written again. */
  setMark(workspace: string, mark: string, ttlMs: number): Promise<void>;
  /** Tell every other instance's watch of the key. */
  publish(change: InboxChange): Promise<void>;
  /** Hear what the other instances publish for the workspace; resolves once hearing, to the way to stop. */
  hear(workspace: string, listener: ChangeListener): Promise<() => void>;
  /** Why the store cannot be used now (lost for longer than its grace), or null. */
  unavailable(): string | null;
}
