import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Deleted } from './deleted.js';
import { RecentCreates } from './duplicate-guard.js';
import { type KeyRecords, MemoryRecords } from './records.js';
import { RedisRecords } from './redis-records.js';

/**
 * What one API key's writes leave behind: the duplicate guard of its creates and the record
 * of its deletes. One per key, shared by every session (and, through Redis, every instance)
 * of that key; never part of one session's server, which a 2026 client gets per request.
 */
export interface KeyWrites {
  creates: RecentCreates;
  deleted: Deleted;
  /** The records themselves, for the key's other one-time marks (a confirmation's answer). */
  records: KeyRecords;
}

/** What the registry needs of the shared limiter's store (RedisLimitStore) to keep records beside it. */
export interface RecordsRedis {
  readonly commands: Redis | Cluster;
  tagOf(apiKey: string): string;
  keyName(tag: string, part: string): string;
}

export interface KeyWritesOptions {
  /** The clock of the records' windows (tests move it). Default Date.now. */
  now?: () => number;
  log?: Logger;
  /** With --redis: the records live there, under a hash of the key, shared by every instance. */
  redis?: RecordsRedis;
}

/** The write records of one key, over the records given (in memory when none). */
export function keyWrites(records: KeyRecords, o: KeyWritesOptions = {}): KeyWrites {
  const opts = { ...(o.now ? { now: o.now } : {}), ...(o.log ? { log: o.log } : {}) };
  return { creates: new RecentCreates(records, opts), deleted: new Deleted(records, opts), records };
}

/**
 * The layer that owns keys (src/cli, a test) asks here for a key's KeyWrites: the same object
 * for the same key for the life of the process, whichever client or session asks (a key's
 * client is closed and made again as sessions come and go; its records must outlive that).
 * Only keys the API accepted get here, and an idle key holds no more than its empty maps.
 */
export class KeyWritesRegistry {
  private readonly byKey = new Map<string, KeyWrites>();

  constructor(private readonly o: KeyWritesOptions = {}) {}

  forKey(apiKey: string): KeyWrites {
    const id = createHash('sha256').update(`reply-inbox-mcp writes\u0000${apiKey}`).digest('hex');
    const held = this.byKey.get(id);
    if (held) return held;
    const r = this.o.redis;
    const records = r ? new RedisRecords(r.commands, r.keyName(r.tagOf(apiKey), 'writes')) : new MemoryRecords(this.o.now);
    const writes = keyWrites(records, this.o);
    this.byKey.set(id, writes);
    return writes;
  }
}
