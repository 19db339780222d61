import type { Cluster, Redis } from 'ioredis';
import type { KeyRecords } from './records.js';

/** Set unless set, else answer what is there: one step, so two instances never both claim. */
const CLAIM = `if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return false end
return redis.call('GET', KEYS[1])`;

/** Replace (or delete, for an empty ARGV[2]) only while the value is still the one expected. */
const SWAP = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

/**
 * A key's write records in Redis, shared by every instance of the server that uses the same
 * Redis. Names carry a prefix made from a hash of the key (never the key) and every name
 * is written with an expiry.
 */
export class RedisRecords implements KeyRecords {
  constructor(
    private readonly redis: Redis | Cluster,
    /** e.g. `ri:v1:{<key's tag>}:writes`, from RedisLimitStore.keyName. */
    private readonly prefix: string,
  ) {}

  private name(n: string): string {
    return `${this.prefix}:${n}`;
  }

  async claim(name: string, value: string, ttlMs: number): Promise<string | null> {
    return (await this.redis.eval(CLAIM, 1, this.name(name), value, String(Math.ceil(ttlMs)))) as string | null;
  }

  get(name: string): Promise<string | null> {
    return this.redis.get(this.name(name));
  }

  async set(name: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.name(name), value, 'PX', Math.ceil(ttlMs));
  }

  async swap(name: string, expected: string, next: string | null, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(SWAP, 1, this.name(name), expected, next ?? '', String(Math.ceil(ttlMs)))) === 1;
  }

  async addTo(name: string, member: string, ttlMs: number): Promise<void> {
    const key = this.name(name);
    await this.redis.multi().sadd(key, member).pexpire(key, Math.ceil(ttlMs)).exec();
  }

  members(name: string): Promise<string[]> {
    return this.redis.smembers(this.name(name));
  }

  async removeFrom(name: string, member: string): Promise<void> {
    await this.redis.srem(this.name(name), member);
  }
}
