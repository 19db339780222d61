import type { Logger } from 'pino';
import { ALL_TOOLS } from '../../tools/index.js';
// Not the client index: it also exports the Redis store and the key probe, which stdio does not load.
import { type CallResult, ReplyInboxClient } from '../client/client.js';
import type { LimiterEvent } from '../client/limiter/types.js';
import type { RedisLimitStore } from '../client/limiter/redis/limit-store.js';
import type { Me } from '../api/resources.js';
import { InboxServer } from '../mcp/server.js';
import { InboxWatch } from '../mcp/live/inbox-watch.js';
import type { WatchPeers } from '../mcp/live/peers.js';
import type { RedisWatches } from '../mcp/live/redis/watches.js';
import { type KeyWrites, KeyWritesRegistry } from '../mcp/writes/key-writes.js';
import { confirmKeyOf, type KeyConfirm, keyConfirm } from '../mcp/confirm/state.js';
import type { Sandbox } from '../sandbox/index.js';
import { SANDBOX_KEYS } from '../sandbox/seed/keys.js';
import { VERSION } from '../version.js';
import type { Config } from './config.js';

/**
 * How the binary builds its servers from a configuration: the API client of a key and the MCP
 * server over it. Both transports build on it, and so do the in-process tool tests
 * (tools/<area>.test.ts), which therefore serve what the binary serves.
 */

/** What both transports build on: where the API is, the configured key if any, the shared limiter store. */
export interface Parts {
  config: Config;
  log: Logger;
  baseUrl: string;
  apiKey: string | undefined;
  store: RedisLimitStore | undefined;
  sandbox: Sandbox | null;
  /** Each key's duplicate guard and delete record, shared by its sessions (and instances, with --redis). */
  writes: KeyWritesRegistry;
  /** With --redis and watching on: each key's inbox watch meets its other instances there. */
  watches: RedisWatches | undefined;
}

export const USER_AGENT = `reply-inbox-mcp/${VERSION}`;

/** The parts of a configuration: the embedded sandbox's API and key when there is one, else the configured ones. */
export async function assemble(config: Config, log: Logger, sandbox: Sandbox | null): Promise<Parts> {
  const apiKey = sandbox ? SANDBOX_KEYS[config.sandboxKey] : config.apiKey;
  const baseUrl = sandbox ? sandbox.baseUrl : config.baseUrl!;
  const store = config.redis
    ? new (await import('../client/limiter/redis/limit-store.js')).RedisLimitStore({ url: config.redis, logger: log.child({ part: 'redis' }) })
    : undefined;
  const writes = new KeyWritesRegistry({ log: log.child({ part: 'writes' }), ...(store ? { redis: store } : {}) });
  const watches =
    store && config.watchSeconds > 0 ? new (await import('../mcp/live/redis/watches.js')).RedisWatches(store, log.child({ part: 'watch' })) : undefined;
  return { config, log, baseUrl, apiKey, store, sandbox, writes, watches };
}

/** Shutdown: what the keys share in Redis closes, the watches' subscriber first, then the store's connections. */
export async function closeShared(p: Parts): Promise<void> {
  p.watches?.close();
  await p.store?.close();
}

/** The write records of each client's key, found again by the sessions built over that client. */
const writesOf = new WeakMap<ReplyInboxClient, KeyWrites>();
/** Each key's confirmation states (2026-07-28): signed with a key derived from it, so any instance of the key verifies them. */
const confirmOf = new WeakMap<ReplyInboxClient, KeyConfirm>();
/** Each client's watch among the key's instances (with --redis): one instance polls each workspace for all. */
const peersOf = new WeakMap<ReplyInboxClient, WatchPeers>();

export function newClient(p: Parts, apiKey: string, onLimiterEvent: (e: LimiterEvent) => void, me?: CallResult<Me>): ReplyInboxClient {
  const client = new ReplyInboxClient({
    apiKey,
    baseUrl: p.baseUrl,
    logger: p.log.child({ part: 'client' }),
    userAgent: USER_AGENT,
    onLimiterEvent,
    sharedLimits: p.store,
    me,
  });
  const writes = p.writes.forKey(apiKey);
  writesOf.set(client, writes);
  confirmOf.set(client, keyConfirm(confirmKeyOf(apiKey), writes.records));
  if (p.watches) peersOf.set(client, p.watches.forKey(apiKey));
  return client;
}

/** One poller per client, so per key: every session of the key shares it (none when watching is off). */
const watches = new WeakMap<ReplyInboxClient, InboxWatch>();
export function watchOf(p: Parts, client: ReplyInboxClient): InboxWatch | undefined {
  if (p.config.watchSeconds === 0) return undefined;
  let w = watches.get(client);
  if (!w) {
    const peers = peersOf.get(client);
    w = new InboxWatch({ api: client, intervalMs: p.config.watchSeconds * 1000, log: p.log.child({ part: 'watch' }), ...(peers ? { peers } : {}) });
    watches.set(client, w);
  }
  return w;
}

/** Stops the client's poller, if it has one. */
export function stopWatch(client: ReplyInboxClient): void {
  watches.get(client)?.close();
}

export function newServer(p: Parts, client: ReplyInboxClient): InboxServer {
  const c = p.config;
  return new InboxServer({
    name: 'reply-inbox-mcp',
    version: VERSION,
    tools: ALL_TOOLS,
    api: client,
    selection: { readOnly: c.readOnly, toolsets: c.toolsets, tools: c.tools },
    defaultWorkspace: c.workspace,
    log: p.log,
    scopeRefreshSeconds: c.scopeRefreshSeconds,
    maxResultBytes: c.maxResultBytes,
    confirm: c.confirm,
    inboxWatch: watchOf(p, client),
    writes: writesOf.get(client),
    confirmState: confirmOf.get(client),
  });
}
