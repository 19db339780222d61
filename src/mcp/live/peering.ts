import type { Logger } from 'pino';
import { type ChangeListener, type InboxChange, later } from './change.js';
import type { WatchPeers } from './peers.js';

/**
 * Who polls a workspace this interval: this watch for every instance (it holds the lease),
 * another instance (this one only hears), or this watch alone (the store cannot be reached, so
 * it polls for its own listeners, as without --redis).
 */
export type Role = 'lead' | 'follow' | 'alone';

/** What the turn reads and moves of a workspace the watch holds. */
export interface Standing {
  /** The newest last_message_at seen; null while another instance polls (its mark is taken over with the lease). */
  watermark: string | null;
  cursor: string | null;
  newest: string | null;
  /** Whether this watch held the lease at its last turn. */
  leading: boolean;
  /** Hearing the other instances' changes (resolves to the way to stop), or null while not. */
  hearing: Promise<() => void> | null;
}

/**
 * The watch's side of its peers: each turn asks who polls, the leader keeps the lease and leaves
 * its mark, and any failure of the store means polling alone until the store answers again
 * (the shared limiter fails calls fast meanwhile, so those polls fail and are tried again).
 */
export class Peering {
  private down = false;

  constructor(
    private readonly peers: WatchPeers,
    private readonly o: {
      /** How long a lease lasts unless renewed; the leader renews it at each turn. */
      leaseMs: number;
      /** How long a mark outlives its last write. */
      markMs: number;
      /** What the other instances publish, for this watch's listeners. */
      heard: ChangeListener;
      log: Logger;
    },
  ) {}

  /** Who polls the workspace now: hearing the others first, so nothing published from now on is missed. */
  async role(workspace: string, w: Standing): Promise<Role> {
    try {
      const why = this.peers.unavailable();
      if (why) throw new Error(why);
      await this.hear(workspace, w);
      const held = await this.peers.lead(workspace, this.o.leaseMs);
      this.back();
      if (!held) {
        w.leading = false;
        w.watermark = w.cursor = w.newest = null;
        return 'follow';
      }
      if (!w.leading) await this.takeOver(workspace, w);
      w.leading = true;
      return 'lead';
    } catch (err) {
      this.lost(err);
      w.leading = false;
      return 'alone';
    }
  }

  private async hear(workspace: string, w: Standing): Promise<void> {
    if (!w.hearing) {
      const hearing = this.peers.hear(workspace, this.o.heard);
      w.hearing = hearing;
      hearing.catch(() => {
        if (w.hearing === hearing) w.hearing = null;
      });
    }
    await w.hearing;
  }

  /** The lease came to this watch: it goes on from the mark the last poller left, when that is newer than its own. */
  private async takeOver(workspace: string, w: Standing): Promise<void> {
    const mark = await this.peers.mark(workspace);
    if (mark === null || (w.watermark !== null && !later(mark, w.watermark))) return;
    w.watermark = mark;
    w.cursor = w.newest = null;
  }

  /** The leader's polls stand here now: the next leader goes on from it. */
  keepMark(workspace: string, w: Standing): void {
    if (!w.leading || w.watermark === null) return;
    this.peers.setMark(workspace, w.watermark, this.o.markMs).catch((err: unknown) => this.lost(err));
  }

  /** One poll from the key's shared budget, or from this watch's own when the store fails. */
  async spend(cap: number, now: number, alone: () => number): Promise<number> {
    try {
      return await this.peers.spend(cap, now);
    } catch (err) {
      this.lost(err);
      return alone();
    }
  }

  publish(change: InboxChange): void {
    this.peers
      .publish(change)
      .catch((err: unknown) => this.o.log.debug({ err, workspace: change.workspace }, 'watch: a change was not published to the other instances'));
  }

  /** Nobody listens here any more: another instance with listeners takes the workspace over at once. */
  resign(workspace: string, w: Standing): void {
    if (!w.leading) return;
    w.leading = false;
    this.peers.resign(workspace).catch((err: unknown) => this.o.log.debug({ err, workspace }, 'watch: the lease was not given up; it expires'));
  }

  /** The workspace is forgotten: stop hearing it. */
  forget(w: Standing): void {
    const hearing = w.hearing;
    w.hearing = null;
    hearing?.then((stop) => stop()).catch(() => undefined);
  }

  private lost(err: unknown): void {
    if (this.down) return;
    this.down = true;
    this.o.log.warn({ err }, 'watch: Redis cannot be reached; each instance polls for its own listeners until it answers again');
  }

  private back(): void {
    if (!this.down) return;
    this.down = false;
    this.o.log.info('watch: Redis answers again; one instance polls each workspace for all');
  }
}
