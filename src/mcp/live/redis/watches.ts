import type { Logger } from 'pino';
import type { RecordsRedis } from '../../writes/key-writes.js';
import { RedisRecords } from '../../writes/redis-records.js';
import { SharedWatch } from '../shared-watch.js';
import { RedisChangeBus } from './change-bus.js';

/** What the watches need of the shared limiter's store (RedisLimitStore): its names and connection, and whether it is down. */
export interface WatchRedis extends RecordsRedis {
  unavailable(): string | null;
}

/**
 * The inbox watches of every key this process serves, met in Redis (--redis): each key's
 * leases, budget and marks are named `ri:v1:{TAG}:watch:…` beside its limiters (TAG a hash of
 * the key, never the key), and its changes go out on `ri:v1:{TAG}:watch:changes:<workspace>`.
 */
export class RedisWatches {
  private readonly bus: RedisChangeBus;

  constructor(
    private readonly redis: WatchRedis,
    log: Logger,
  ) {
    this.bus = new RedisChangeBus(redis.commands, log);
  }

  /** A watch of the key among the key's instances: one for each of the key's clients. */
  forKey(apiKey: string): SharedWatch {
    const prefix = this.redis.keyName(this.redis.tagOf(apiKey), 'watch');
    return new SharedWatch(new RedisRecords(this.redis.commands, prefix), this.bus, {
      channel: (workspace) => `${prefix}:changes:${workspace}`,
      unavailable: () => this.redis.unavailable(),
    });
  }

  close(): void {
    this.bus.close();
  }
}
