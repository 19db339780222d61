import type { Logger } from 'pino';
import type { LimiterState } from '../../client/index.js';
import { RATE_LIMITS } from '../../api/enums.js';
import { type Clock, type Timer, systemClock } from '../../clock.js';
import type { TypedApi } from '../declare/tool-context.js';
import { type ChangeListener, type InboxChange, later } from './change.js';
import { KnownLeads } from './known-leads.js';
import type { WatchPeers } from './peers.js';
import { Peering, type Role, type Standing } from './peering.js';
import { PollBudget, WATCH_SHARE } from './poll-budget.js';

export type { ChangeListener, InboxChange } from './change.js';

/** What the watch needs of the API client: calls by a row's name, and its buckets' state to give way to tool calls. */
export interface WatchApi extends TypedApi {
  limiterState?(): LimiterState;
}

export interface InboxWatchOptions {
  api: WatchApi;
  /** Between polls of one workspace (--watch-seconds). */
  intervalMs: number;
  /** Of the key's read bucket per minute (default 10%). */
  share?: number;
  log: Logger;
  /** Its timers and the time now (a test drives them). */
  clock?: Clock;
  /** With --redis: the key's other instances. One of them polls each workspace for the listeners of all. */
  peers?: WatchPeers;
  /** How long a poller's lease lasts unless renewed at its next turn (default three intervals, at least 10 s). */
  leaseMs?: number;
}

/** A page of the poll: enough that one poll nearly always sees every change of an interval. */
const POLL_PAGE = 200;
/**
 * A workspace's state is kept this long after its last listener leaves, unpolled, so a client
 * that unsubscribes and subscribes again costs no new baseline read.
 */
export const LINGER_MS = 60_000;
/** The baseline read's page: the newest leads, so subscriptions to them need no check of their own. */
const BASELINE_PAGE = 100;
/** Before any lead has a message: every message is newer than this. */
const EPOCH = '1970-01-01T00:00:00.000Z';

/** A lease outlives this many intervals, so one late turn does not hand the workspace over. */
const LEASE_INTERVALS = 3;
const MIN_LEASE_MS = 10_000;

/**
 * watermark: the newest last_message_at seen, the next poll asks for leads strictly after it;
 * cursor: a poll that had more pages continues from here, with the same watermark; newest: the
 * newest last_message_at of the pages read under the current watermark.
 */
interface Workspace extends Standing {
  listeners: Set<ChangeListener>;
  timer: Timer | null;
  /** Set while nobody listens: when it fires, the workspace is forgotten. */
  linger: Timer | null;
  ready: Promise<void>;
}

/**
 * One poller per API client (so per key), shared by every session that subscribes: a
 * workspace is polled once an interval however many subscribers it has, with list_leads
 * and updated_since (the spec's filter on last_message_at), under the client's limiter.
 * Polling keeps to its share of the read bucket and waits while the bucket runs low, so it
 * never takes the reads tool calls need. A workspace with no listener left is not polled.
 * With peers (--redis), the instances of a key poll each workspace once between them: the
 * lease holder polls from the key's one budget and publishes what it finds to all.
 */
export class InboxWatch {
  private readonly workspaces = new Map<string, Workspace>();
  private readonly budget: PollBudget;
  private readonly clock: Clock;
  private readonly peering: Peering | null;
  /** list_leads requests this watch sent, baseline reads included. */
  polls = 0;
  /** Leads known to exist, for subscriptions to one lead. */
  readonly leads: KnownLeads;

  constructor(private readonly o: InboxWatchOptions) {
    this.clock = o.clock ?? systemClock;
    this.leads = new KnownLeads(o.api);
    this.budget = new PollBudget(
      () => this.readBucket()?.limit ?? RATE_LIMITS.read,
      o.share ?? WATCH_SHARE,
      () => this.clock.now(),
    );
    const leaseMs = o.leaseMs ?? Math.max(LEASE_INTERVALS * o.intervalMs, MIN_LEASE_MS);
    this.peering = o.peers ? new Peering(o.peers, { leaseMs, markMs: LINGER_MS + leaseMs, heard: (c) => this.heard(c), log: o.log }) : null;
  }

  /** Polls a minute this watch may send, as the key's read bucket stands now. */
  get cap(): number {
    return this.budget.cap;
  }

  /** Workspaces being polled now (someone listens). */
  get watched(): string[] {
    return [...this.workspaces].filter(([, w]) => w.listeners.size > 0).map(([k]) => k);
  }

  /** Workspaces whose state is held, polled or lingering. */
  get held(): number {
    return this.workspaces.size;
  }

  /**
   * Hear the changes of a workspace until the returned function is called. Resolves once the
   * watch knows where the workspace stands, so a reply arriving afterwards is reported.
   */
  async listen(workspace: string, listener: ChangeListener): Promise<() => void> {
    let w = this.workspaces.get(workspace);
    if (!w) {
      const fresh: Workspace = {
        listeners: new Set(),
        watermark: null,
        cursor: null,
        newest: null,
        leading: false,
        hearing: null,
        timer: null,
        linger: null,
        ready: Promise.resolve(),
      };
      fresh.ready = this.peering ? this.join(workspace, fresh) : this.baseline(workspace, fresh, 'alone');
      this.workspaces.set(workspace, fresh);
      w = fresh;
    }
    const ws = w;
    const resumed = ws.linger !== null;
    if (ws.linger) this.clock.clearTimeout(ws.linger);
    ws.linger = null;
    ws.listeners.add(listener);
    await ws.ready;
    if (resumed && ws.timer === null) this.schedule(workspace, ws, this.o.intervalMs);
    return () => this.leave(workspace, ws, listener);
  }

  /** A listener left: the last one stops the polls, and the state lingers a while for a return. */
  private leave(workspace: string, ws: Workspace, listener: ChangeListener): void {
    ws.listeners.delete(listener);
    if (ws.listeners.size > 0 || this.workspaces.get(workspace) !== ws) return;
    if (ws.timer) this.clock.clearTimeout(ws.timer);
    ws.timer = null;
    this.peering?.resign(workspace, ws);
    if (ws.linger) this.clock.clearTimeout(ws.linger);
    ws.linger = this.clock.setTimeout(() => {
      if (this.workspaces.get(workspace) !== ws || ws.listeners.size > 0) return;
      this.workspaces.delete(workspace);
      this.peering?.forget(ws);
    }, LINGER_MS);
    ws.linger.unref();
  }

  /** Changes this server made itself (a write tool): every listener of the workspace hears them now. */
  touched(workspace: string, leads: string[]): void {
    if (leads.length > 0) this.announce({ workspace, leads });
  }

  /** Stop every poll (the client is closing). */
  close(): void {
    for (const [workspace, w] of this.workspaces) {
      if (w.timer) this.clock.clearTimeout(w.timer);
      if (w.linger) this.clock.clearTimeout(w.linger);
      this.peering?.resign(workspace, w);
      this.peering?.forget(w);
    }
    this.workspaces.clear();
  }

  private readBucket() {
    return this.o.api.limiterState?.().buckets.find((b) => b.bucket === 'read');
  }

  /**
   * With peers, a workspace first heard: the lease holder goes on from its mark or reads where
   * the inbox stands; the others only hear until the lease comes to them.
   */
  private async join(workspace: string, w: Workspace): Promise<void> {
    const role = await this.peering!.role(workspace, w);
    if (role === 'follow' || w.watermark !== null) this.schedule(workspace, w, this.o.intervalMs);
    else await this.baseline(workspace, w, role);
  }

  /**
   * The newest message's time: changes are what comes after it. One read, within the budget;
   * when the budget is spent (subscription churn), the watch starts from now without reading.
   */
  private async baseline(workspace: string, w: Workspace, role: Role): Promise<void> {
    if ((await this.take(role)) > 0) {
      w.watermark = new Date(this.clock.now()).toISOString();
      this.o.log.debug({ workspace }, 'watch: read budget spent; watching from now without a baseline read');
      this.schedule(workspace, w, this.o.intervalMs);
      return;
    }
    this.polls++;
    try {
      const r = await this.o.api.call('list_leads', { path: { workspace }, query: { limit: BASELINE_PAGE } });
      // The client's answer is not checked against the row here: each field is looked at before it is used.
      const rows = r.data.data ?? [];
      for (const l of rows) if (typeof l.id === 'string') this.leads.add(workspace, l.id);
      const newest = rows[0]?.last_message_at;
      w.watermark = typeof newest === 'string' ? newest : EPOCH;
      this.peering?.keepMark(workspace, w);
    } catch (err) {
      // Without a baseline the first poll starts from now: nothing older is reported as new.
      w.watermark = new Date(this.clock.now()).toISOString();
      this.o.log.warn({ err, workspace }, 'watch: could not read where the inbox stands; watching from now');
    }
    this.schedule(workspace, w, this.o.intervalMs);
  }

  /** One poll from the budget: the key's shared one while leading, this watch's own otherwise. 0 when taken, else the wait. */
  private async take(role: Role): Promise<number> {
    const alone = () => {
      const wait = this.budget.wait();
      if (wait === 0) this.budget.spend();
      return wait;
    };
    return role === 'lead' && this.peering ? this.peering.spend(this.budget.cap, this.clock.now(), alone) : alone();
  }

  private schedule(workspace: string, w: Workspace, ms: number): void {
    if (this.workspaces.get(workspace) !== w || w.listeners.size === 0) return;
    if (w.timer) this.clock.clearTimeout(w.timer);
    w.timer = this.clock.setTimeout(() => void this.tick(workspace, w), ms);
    // Watching alone never keeps the process alive.
    w.timer.unref();
  }

  /** Milliseconds to wait while the read bucket is low: tool calls keep what is left. */
  private bucketWait(): number {
    const read = this.readBucket();
    if (!read || (read.queued === 0 && read.available > this.budget.cap)) return 0;
    const end = this.o.api.limiterState?.().windowEnd;
    return Math.max(1_000, (end ?? 0) - this.clock.now());
  }

  private async tick(workspace: string, w: Workspace): Promise<void> {
    w.timer = null;
    if (this.workspaces.get(workspace) !== w) return;
    const role = this.peering ? await this.peering.role(workspace, w) : 'alone';
    if (role === 'follow') return this.schedule(workspace, w, this.o.intervalMs);
    if (w.watermark === null) return this.baseline(workspace, w, role);
    const wait = this.bucketWait() || (await this.take(role));
    if (wait > 0) {
      this.o.log.debug({ workspace, wait_ms: wait }, 'watch: poll delayed by its read budget');
      // A leader waits no longer than an interval between turns: each turn renews its lease.
      this.schedule(workspace, w, this.peering ? Math.min(wait, this.o.intervalMs) : wait);
      return;
    }
    this.polls++;
    let more = false;
    try {
      more = await this.poll(workspace, w);
    } catch (err) {
      this.o.log.warn({ err, workspace }, 'watch: poll failed; trying again next interval');
    }
    this.schedule(workspace, w, more ? 0 : this.o.intervalMs);
    // The last listener left during the poll: the lease it may have renewed meanwhile goes too.
    if (w.listeners.size === 0) this.peering?.resign(workspace, w);
  }

  /** One page of leads whose newest message is after the watermark, oldest first. Returns whether more pages wait. */
  private async poll(workspace: string, w: Workspace): Promise<boolean> {
    const since = w.watermark ?? EPOCH;
    const query = { updated_since: since, order: 'asc', limit: POLL_PAGE, ...(w.cursor ? { cursor: w.cursor } : {}) } as const;
    const page = (await this.o.api.call('list_leads', { path: { workspace }, query })).data;
    const rows = page.data ?? [];
    const changed = rows.map((l) => l.id).filter((id): id is string => typeof id === 'string');
    for (const id of changed) this.leads.add(workspace, id);
    for (const l of rows) if (typeof l.last_message_at === 'string' && later(l.last_message_at, w.newest)) w.newest = l.last_message_at;
    const next = page.has_more === true && typeof page.next_cursor === 'string' ? page.next_cursor : null;
    const more = next !== null;
    if (more) w.cursor = next;
    else {
      w.cursor = null;
      if (w.newest !== null && later(w.newest, w.watermark)) w.watermark = w.newest;
      this.peering?.keepMark(workspace, w);
    }
    if (changed.length > 0) this.announce({ workspace, leads: changed, since });
    return more;
  }

  /** A change this watch found or made: its listeners hear it, and with peers every other instance's. */
  private announce(change: InboxChange): void {
    this.tell(change);
    this.peering?.publish(change);
  }

  /** A change another instance published: the leads it names exist, and this watch's listeners hear it. */
  private heard(change: InboxChange): void {
    for (const id of change.leads) this.leads.add(change.workspace, id);
    this.tell(change);
  }

  private tell(change: InboxChange): void {
    const w = this.workspaces.get(change.workspace);
    if (!w) return;
    for (const l of [...w.listeners]) {
      try {
        l({ ...change });
      } catch (err) {
        this.o.log.warn({ err, workspace: change.workspace }, 'watch: a listener failed');
      }
    }
  }
}
