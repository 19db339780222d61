import { randomBytes } from 'node:crypto';
import type { KeyRecords } from '../writes/records.js';
import type { ChangeListener, InboxChange } from './change.js';
import type { WatchPeers } from './peers.js';
import { MINUTE_MS } from './poll-budget.js';

/** Messages on named channels, heard by every instance that subscribes (Redis pub/sub). */
export interface ChangeBus {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once subscribed, to the way to stop. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => void>;
}

export interface SharedWatchOptions {
  /** The channel of a workspace's changes: named from the key's hash, never the key. */
  channel(workspace: string): string;
  /** Why the store cannot be used now, or null. */
  unavailable?(): string | null;
}

/** The most lead ids a published change may name (a poll's page is 200). */
const MAX_LEADS = 1_000;

/**
 * A key's watch among its instances, over the key's records (Redis with --redis, so each is
 * one atomic command there) and a change bus. The lease of a workspace is a record holding
 * this watch's id; the budget is `cap` records that each live a minute from the poll that took
 * them, so taken ones count the polls of the last minute, whichever instance sent them.
 */
export class SharedWatch implements WatchPeers {
  /** This watch among the key's: the lease's holder and the changes' sender. */
  readonly self = randomBytes(6).toString('hex');
  /** The budget record after the last one taken: in turn, it is the oldest, so it is free first. */
  private nextSlot = 0;

  constructor(
    private readonly records: KeyRecords,
    private readonly bus: ChangeBus,
    private readonly o: SharedWatchOptions,
  ) {}

  async lead(workspace: string, ttlMs: number): Promise<boolean> {
    const name = `lease:${workspace}`;
    const there = await this.records.claim(name, this.self, ttlMs);
    if (there === null) return true;
    // Renewed only while it is still ours: a lease that lapsed and went to another stays theirs.
    return there === this.self && this.records.swap(name, this.self, this.self, ttlMs);
  }

  async resign(workspace: string): Promise<void> {
    await this.records.swap(`lease:${workspace}`, this.self, null, 1);
  }

  async spend(cap: number, now: number): Promise<number> {
    let soonest = MINUTE_MS;
    for (let i = 0; i < cap; i++) {
      const slot = (this.nextSlot + i) % cap;
      const there = await this.records.claim(`budget:${slot}`, String(now), MINUTE_MS);
      if (there === null) {
        this.nextSlot = (slot + 1) % cap;
        return 0;
      }
      const taken = Number(there);
      if (Number.isFinite(taken)) soonest = Math.min(soonest, taken + MINUTE_MS - now);
    }
    return Math.max(1, soonest);
  }

  mark(workspace: string): Promise<string | null> {
    return this.records.get(`mark:${workspace}`);
  }

  setMark(workspace: string, mark: string, ttlMs: number): Promise<void> {
    return this.records.set(`mark:${workspace}`, mark, ttlMs);
  }

  publish(change: InboxChange): Promise<void> {
    return this.bus.publish(this.o.channel(change.workspace), JSON.stringify({ from: this.self, ...change }));
  }

  hear(workspace: string, listener: ChangeListener): Promise<() => void> {
    return this.bus.subscribe(this.o.channel(workspace), (message) => {
      const change = changeOf(message, workspace, this.self);
      if (change) listener(change);
    });
  }

  unavailable(): string | null {
    return this.o.unavailable?.() ?? null;
  }
}

/** A message of the workspace's channel as a change, or null: one this watch sent, or not a change of that workspace. */
export function changeOf(message: string, workspace: string, self: string): InboxChange | null {
  let m: unknown;
  try {
    m = JSON.parse(message);
  } catch {
    return null;
  }
  const { from, workspace: ws, leads, since } = (m ?? {}) as Record<string, unknown>;
  if (from === self || ws !== workspace || !Array.isArray(leads) || leads.length > MAX_LEADS) return null;
  if (!leads.every((l) => typeof l === 'string') || (since !== undefined && typeof since !== 'string')) return null;
  return { workspace, leads: leads as string[], ...(since !== undefined ? { since: since as string } : {}) };
}
