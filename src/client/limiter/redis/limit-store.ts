import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import Bottleneck from 'bottleneck';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LimiterOptions } from '../types.js';
import type { RedisLink } from './link.js';
import { restoreScriptErrors } from './script-errors-patch.js';
import { quietUnsubscribe } from './unsubscribe-patch.js';
import { SharedLimiter } from './shared-limiter.js';

export interface RedisLimitStoreOptions {
  /** redis://… or rediss://…; several, comma-separated, are the seed nodes of a Redis Cluster. */
  url: string;
  /**
   * How long a job may hold a token or a concurrency slot in Redis before it is taken back.
   * It frees what a killed process held; a live request longer than this gives its slot up early.
   */
  jobExpirationMs?: number;
  /** How often each limiter ticks Redis: expired jobs and new capacity are noticed at least this often. */
  heartbeatMs?: number;
  /** A key's state leaves Redis after this long unused. */
  idleMs?: number;
  /** How long calls wait for a lost Redis before they fail fast, not sent. Default 5 s. */
  downGraceMs?: number;
  logger?: Logger;
}

export const DEFAULT_JOB_EXPIRATION_MS = 90_000;
const DEFAULT_HEARTBEAT_MS = 1_000;
const DEFAULT_IDLE_MS = 15 * 60_000;
/** A turn marker only needs to outlive the moment every instance has moved past that window. */
const TURN_MARK_TTL_MS = 120_000;
/** How long calls wait for a lost Redis to come back before they fail fast, not sent. */
export const STORE_GRACE_MS = 5_000;
/** How long close() waits for Redis to acknowledge QUIT. */
const CLOSE_WAIT_MS = 1_000;
/** Bump when the layout of what we keep in Redis changes, so old state is never misread. */
const LAYOUT = 'v1';

/**
 * One Redis connection per process, shared by the limiters of every key this process
 * serves (bottleneck's IORedisConnection: one client for commands, one for pub/sub).
 * Names in Redis come from a hash of the key, never the key, inside a `{hash tag}` so a
 * key's limiters and markers share one Redis Cluster slot (its scripts touch them together).
 */
export class RedisLimitStore implements RedisLink {
  readonly connection: Bottleneck.IORedisConnection;
  readonly jobExpirationMs: number;
  readonly heartbeatMs: number;
  readonly idleMs: number;
  readonly downGraceMs: number;
  /** This process among the instances, for the turn markers it sets. */
  readonly instance = randomBytes(6).toString('hex');
  private readonly client: Redis | Cluster;
  private lastErrorLog = 0;
  private readonly lostListeners = new Map<string, () => void>();
  private readonly downListeners = new Set<(reason: string) => void>();
  private downSince: number | null = null;
  private downTimer: NodeJS.Timeout | null = null;
  private closed: Promise<void> | null = null;

  constructor(private readonly o: RedisLimitStoreOptions) {
    this.jobExpirationMs = o.jobExpirationMs ?? DEFAULT_JOB_EXPIRATION_MS;
    this.heartbeatMs = o.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
    this.downGraceMs = o.downGraceMs ?? STORE_GRACE_MS;
    const urls = o.url
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    // Few retries per command: the limiter retries its own jobs until the call's deadline.
    const options = { maxRetriesPerRequest: 2, connectionName: 'reply-inbox-mcp' };
    // Required here, not imported: a server without --redis never loads ioredis (it costs start-up time).
    const ioredis = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    // bottleneck duplicates the client for its subscriber, a Cluster as a Cluster.
    this.client = urls.length > 1 ? new ioredis.Cluster(urls, { redisOptions: options }) : new ioredis.Redis(urls[0]!, options);
    this.connection = new Bottleneck.IORedisConnection({ client: this.client, Redis: ioredis.Redis });
    restoreScriptErrors(this.connection, (id) => this.lostListeners.get(id)?.());
    quietUnsubscribe(this.connection);
    this.connection.on('error', (e: unknown) => this.logError(e));
    this.client.on('ready', () => {
      this.downSince = null;
      if (this.downTimer) clearTimeout(this.downTimer);
      this.downTimer = null;
    });
    for (const event of ['reconnecting', 'close', 'end']) this.client.on(event, () => this.lost());
  }

  /** The connection dropped: after the grace, if it is still down, the limiters waiting on it hear so. */
  private lost(): void {
    if (this.closed) return;
    this.downSince ??= Date.now();
    if (this.downTimer) return;
    this.downTimer = setTimeout(() => {
      this.downTimer = null;
      const reason = this.unavailable();
      if (reason) for (const l of [...this.downListeners]) l(reason);
    }, this.downGraceMs);
    this.downTimer.unref();
  }

  /**
   * Why calls cannot be limited now, or null. A Redis lost for less than `graceMs` (a restart,
   * a failover) is not reported yet: calls wait that long for it to come back, then fail fast.
   */
  unavailable(graceMs = this.downGraceMs): string | null {
    if (this.downSince === null || Date.now() - this.downSince < graceMs) return null;
    return `Redis has been unreachable for ${Math.round((Date.now() - this.downSince) / 1000)} s`;
  }

  /** Hear when the connection to Redis stays lost past the grace; returns the way to stop. */
  onDown(listener: (reason: string) => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  /** A key's limiter over this store; built here so a client without Redis never loads the shared modules. */
  limiterFor(apiKey: string, o: LimiterOptions): SharedLimiter {
    return new SharedLimiter({ ...o, store: this, tag: this.tagOf(apiKey) });
  }

  /** The key's tag in Redis names: a hash of the key, never the key. */
  tagOf(apiKey: string): string {
    return createHash('sha256').update(`reply-inbox-mcp limiter\u0000${apiKey}`).digest('hex').slice(0, 24);
  }

  /** A bottleneck limiter id; bottleneck makes its keys `b_<id>_…`, so the tag stays their first `{…}`. */
  limiterId(tag: string, part: string): string {
    return this.keyName(tag, part);
  }

  /** A name in Redis for something of a key's (a limiter, its write records): its tag in braces, so all of it shares one Cluster slot. */
  keyName(tag: string, part: string): string {
    return `ri:${LAYOUT}:{${tag}}:${part}`;
  }

  /** The commands connection, for the records a key keeps beside its limiters (src/mcp/writes). */
  get commands(): Redis | Cluster {
    return this.client;
  }

  /** Hear when Redis no longer holds a limiter's state (FLUSHALL, restart, expiry); returns the way to stop. */
  onLost(limiterId: string, listener: () => void): () => void {
    this.lostListeners.set(limiterId, listener);
    return () => this.lostListeners.delete(limiterId);
  }

  /**
   * Count one request the API answered (and counted) in the window ending `windowEnd`, for the
   * refill that opens that window (landedAfter). Issued at once, not awaited: the limiter's
   * job that held the token is freed after it, by a script on this same connection, which
   * Redis runs in order, so a refill that no longer finds the job running finds this count.
   */
  countLanded(tag: string, bucket: string, windowEnd: number): void {
    const key = this.landedKey(tag);
    this.client.hincrby(key, `${bucket}:${windowEnd}`, 1).catch((e: unknown) => this.logError(e));
    this.client.pexpire(key, TURN_MARK_TTL_MS).catch((e: unknown) => this.logError(e));
  }

  /** Requests counted by windows ending after `ended`, by bucket; the counts of windows that are over are dropped. */
  async landedAfter(tag: string, ended: number): Promise<Record<string, number>> {
    const key = this.landedKey(tag);
    const fields = await this.client.hgetall(key);
    const after: Record<string, number> = {};
    const over: string[] = [];
    for (const [field, n] of Object.entries(fields)) {
      const cut = field.lastIndexOf(':');
      const bucket = field.slice(0, cut);
      if (Number(field.slice(cut + 1)) > ended) after[bucket] = (after[bucket] ?? 0) + Number(n);
      else over.push(field);
    }
    if (over.length) await this.client.hdel(key, ...over);
    return after;
  }

  private landedKey(tag: string): string {
    return `ri:${LAYOUT}:{${tag}}:landed`;
  }

  /** Claim the refill that follows a window: true for exactly one instance per window. */
  async claimTurn(tag: string, windowId: string): Promise<boolean> {
    const r = await this.client.set(`ri:${LAYOUT}:{${tag}}:turn:${windowId}`, this.instance, 'PX', TURN_MARK_TTL_MS, 'NX');
    return r === 'OK';
  }

  /** ioredis' connection state: ready, connecting, reconnecting, end… (for /healthz). */
  status(): string {
    return this.client.status;
  }

  /** Resolves once the commands connection is usable. */
  async ready(): Promise<void> {
    // bottleneck's typings call it a method; it is the connection's ready promise.
    await (this.connection as unknown as { ready: Promise<unknown> }).ready;
  }

  /**
   * Close both connections. bottleneck's own disconnect of a limiter that was given a shared
   * connection leaves that connection open, which keeps the process alive: this closes it.
   */
  close(): Promise<void> {
    if (this.downTimer) clearTimeout(this.downTimer);
    this.closed ??= (async () => {
      // QUIT waits for Redis; a Redis that is down would hold the shutdown, so after a second both are cut.
      let timer: NodeJS.Timeout | undefined;
      const quit = this.connection.disconnect(true).then(
        () => true,
        () => false,
      );
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS)));
      const clean = await Promise.race([quit, late]);
      clearTimeout(timer);
      if (!clean) await this.connection.disconnect(false);
    })();
    return this.closed;
  }

  private logError(e: unknown): void {
    const now = Date.now();
    // A Redis that is down errors on every reconnect attempt: one line per 10 s is enough.
    if (now - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = now;
    this.o.logger?.warn({ err: e }, 'redis: the shared rate limiter store failed; calls wait until it is back');
  }
}
