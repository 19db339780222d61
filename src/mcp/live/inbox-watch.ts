import type { Logger } from 'pino';
import type { LimiterState } from '../../client/index.js';
import { RATE_LIMITS } from '../../api/enums.js';
import { type Clock, type Timer, systemClock } from '../../clock.js';
import type { ApiCaller } from '../declare/tool-context.js';
import { KnownLeads } from './known-leads.js';
import { PollBudget, WATCH_SHARE } from './poll-budget.js';

/** What the watch needs of the API client: calls, and its buckets' state to give way to tool calls. */
export interface WatchApi extends ApiCaller {
  limiterState?(): LimiterState;
}

/** Leads of a workspace whose newest message moved since the last poll. */
export interface InboxChange {
  workspace: string;
  leads: string[];
  /** A poll found them: their newest message is strictly after this (absent for this server's own writes). */
  since?: string;
}
export type ChangeListener = (c: InboxChange) => void;

export interface InboxWatchOptions {
  api: WatchApi;
  /** Between polls of one workspace (--watch-seconds). */
  intervalMs: number;
  /** Of the key's read bucket per minute (default 10%). */
  share?: number;
  log: Logger;
  /** Its timers and the time now (a test drives them). */
  clock?: Clock;
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

/** Timestamps compared as instants, whatever their offset or precision. */
const later = (a: string, than: string | null) => than === null || Date.parse(a) > Date.parse(than);

interface Workspace {
  listeners: Set<ChangeListener>;
  /** The newest last_message_at seen: the next poll asks for leads strictly after it. */
  watermark: string | null;
  /** A poll that had more pages continues from here, with the same watermark. */
  cursor: string | null;
  /** The newest last_message_at of the pages read under the current watermark. */
  newest: string | null;
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
 */
export class InboxWatch {
  private readonly workspaces = new Map<string, Workspace>();
  private readonly budget: PollBudget;
  private readonly clock: Clock;
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
      const fresh: Workspace = { listeners: new Set(), watermark: null, cursor: null, newest: null, timer: null, linger: null, ready: Promise.resolve() };
      fresh.ready = this.baseline(workspace, fresh);
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
    if (ws.linger) this.clock.clearTimeout(ws.linger);
    ws.linger = this.clock.setTimeout(() => {
      if (this.workspaces.get(workspace) === ws && ws.listeners.size === 0) this.workspaces.delete(workspace);
    }, LINGER_MS);
    ws.linger.unref();
  }

  /** Changes this server made itself (a write tool): every listener of the workspace hears them now. */
  touched(workspace: string, leads: string[]): void {
    if (leads.length > 0) this.tell(workspace, leads);
  }

  /** Stop every poll (the client is closing). */
  close(): void {
    for (const w of this.workspaces.values()) {
      if (w.timer) this.clock.clearTimeout(w.timer);
      if (w.linger) this.clock.clearTimeout(w.linger);
    }
    this.workspaces.clear();
  }

  private readBucket() {
    return this.o.api.limiterState?.().buckets.find((b) => b.bucket === 'read');
  }

  /**
   * The newest message's time: changes are what comes after it. One read, within the budget;
   * when the budget is spent (subscription churn), the watch starts from now without reading.
   */
  private async baseline(workspace: string, w: Workspace): Promise<void> {
    if (this.budget.wait() > 0) {
      w.watermark = new Date(this.clock.now()).toISOString();
      this.o.log.debug({ workspace }, 'watch: read budget spent; watching from now without a baseline read');
      this.schedule(workspace, w, this.o.intervalMs);
      return;
    }
    this.budget.spend();
    this.polls++;
    try {
      const r = await this.o.api.call('list_leads', { path: { workspace }, query: { limit: BASELINE_PAGE } });
      const rows = (r.data as { data?: { id?: unknown; last_message_at?: string | null }[] }).data ?? [];
      for (const l of rows) if (typeof l.id === 'string') this.leads.add(workspace, l.id);
      const newest = rows[0]?.last_message_at;
      w.watermark = typeof newest === 'string' ? newest : EPOCH;
    } catch (err) {
      // Without a baseline the first poll starts from now: nothing older is reported as new.
      w.watermark = new Date(this.clock.now()).toISOString();
      this.o.log.warn({ err, workspace }, 'watch: could not read where the inbox stands; watching from now');
    }
    this.schedule(workspace, w, this.o.intervalMs);
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
    const wait = this.budget.wait() || this.bucketWait();
    if (wait > 0) {
      this.o.log.debug({ workspace, wait_ms: wait }, 'watch: poll delayed by its read budget');
      this.schedule(workspace, w, wait);
      return;
    }
    this.budget.spend();
    this.polls++;
    let more = false;
    try {
      more = await this.poll(workspace, w);
    } catch (err) {
      this.o.log.warn({ err, workspace }, 'watch: poll failed; trying again next interval');
    }
    this.schedule(workspace, w, more ? 0 : this.o.intervalMs);
  }

  /** One page of leads whose newest message is after the watermark, oldest first. Returns whether more pages wait. */
  private async poll(workspace: string, w: Workspace): Promise<boolean> {
    const query: Record<string, unknown> = { updated_since: w.watermark ?? EPOCH, order: 'asc', limit: POLL_PAGE };
    if (w.cursor) query.cursor = w.cursor;
    const r = await this.o.api.call('list_leads', { path: { workspace }, query });
    const page = r.data as { data?: { id?: unknown; last_message_at?: unknown }[]; has_more?: boolean; next_cursor?: string | null };
    const rows = page.data ?? [];
    const changed = rows.map((l) => l.id).filter((id): id is string => typeof id === 'string');
    for (const id of changed) this.leads.add(workspace, id);
    for (const l of rows) if (typeof l.last_message_at === 'string' && later(l.last_message_at, w.newest)) w.newest = l.last_message_at;
    const more = page.has_more === true && typeof page.next_cursor === 'string';
    if (more) w.cursor = page.next_cursor!;
    else {
      w.cursor = null;
      if (w.newest !== null && later(w.newest, w.watermark)) w.watermark = w.newest;
    }
    if (changed.length > 0) this.tell(workspace, changed, String(query.updated_since));
    return more;
  }

  private tell(workspace: string, leads: string[], since?: string): void {
    const w = this.workspaces.get(workspace);
    if (!w) return;
    for (const l of [...w.listeners]) {
      try {
        l({ workspace, leads, ...(since ? { since } : {}) });
      } catch (err) {
        this.o.log.warn({ err, workspace }, 'watch: a listener failed');
      }
    }
  }
}
