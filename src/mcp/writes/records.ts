import type { Logger } from 'pino';
import { DUPLICATE_WINDOW_MS } from '../declare/shared-args.js';

/**
 * Where one key's write records live: small strings under names, each with its own expiry,
 * and sets of names. In this process's memory (MemoryRecords) or in Redis, shared by every
 * instance of the key (RedisRecords). Every entry expires: nothing is kept for ever.
 */
export interface KeyRecords {
  /** Put `value` under `name` unless something is there; answers what is there, or null when it was put. */
  claim(name: string, value: string, ttlMs: number): Promise<string | null>;
  get(name: string): Promise<string | null>;
  set(name: string, value: string, ttlMs: number): Promise<void>;
  /** Replace what is under `name` with `next` (remove it when null), only while it is still `expected`; answers whether it was. */
  swap(name: string, expected: string, next: string | null, ttlMs: number): Promise<boolean>;
  /** Add `member` to the set `name`, which then lives `ttlMs` more. */
  addTo(name: string, member: string, ttlMs: number): Promise<void>;
  members(name: string): Promise<string[]>;
  removeFrom(name: string, member: string): Promise<void>;
}

interface Held<T> {
  value: T;
  until: number;
}

/** A key's records in this process, expired by the clock it is given (tests move it). */
export class MemoryRecords implements KeyRecords {
  private readonly values = new Map<string, Held<string>>();
  private readonly sets = new Map<string, Held<Set<string>>>();

  constructor(private readonly now: () => number = Date.now) {}

  async claim(name: string, value: string, ttlMs: number): Promise<string | null> {
    this.sweep();
    const there = this.live(this.values, name);
    if (there !== undefined) return there;
    this.values.set(name, { value, until: this.now() + ttlMs });
    return null;
  }

  async get(name: string): Promise<string | null> {
    return this.live(this.values, name) ?? null;
  }

  async set(name: string, value: string, ttlMs: number): Promise<void> {
    this.sweep();
    this.values.set(name, { value, until: this.now() + ttlMs });
  }

  async swap(name: string, expected: string, next: string | null, ttlMs: number): Promise<boolean> {
    if (this.live(this.values, name) !== expected) return false;
    if (next === null) this.values.delete(name);
    else this.values.set(name, { value: next, until: this.now() + ttlMs });
    return true;
  }

  async addTo(name: string, member: string, ttlMs: number): Promise<void> {
    const set = this.live(this.sets, name) ?? new Set<string>();
    set.add(member);
    this.sets.set(name, { value: set, until: this.now() + ttlMs });
  }

  async members(name: string): Promise<string[]> {
    return [...(this.live(this.sets, name) ?? [])];
  }

  async removeFrom(name: string, member: string): Promise<void> {
    this.live(this.sets, name)?.delete(member);
  }

  /** What is under `name` and not expired; an expired entry goes. */
  private live<T>(map: Map<string, Held<T>>, name: string): T | undefined {
    const held = map.get(name);
    if (held && held.until <= this.now()) {
      map.delete(name);
      return undefined;
    }
    return held?.value;
  }

  /** Every expired entry goes: run before each new one, so at most a window's writes are held (the write bucket bounds them). */
  private sweep(): void {
    const t = this.now();
    for (const map of [this.values, this.sets] as Map<string, Held<unknown>>[]) for (const [k, h] of map) if (h.until <= t) map.delete(k);
  }
}

export interface KeeperOptions {
  /** The clock of the window (tests move it). Default Date.now. */
  now?: () => number;
  /** How long a record is kept. Default the duplicate guard's ten minutes. */
  windowMs?: number;
  log?: Logger;
}

/** What the duplicate guard and the delete record share: a key's records, a clock, a window and a log for a store that fails. */
export abstract class RecordKeeper {
  protected readonly now: () => number;
  protected readonly windowMs: number;
  protected readonly log: Logger | undefined;

  constructor(
    protected readonly records: KeyRecords,
    o: KeeperOptions = {},
  ) {
    this.now = o.now ?? Date.now;
    this.windowMs = o.windowMs ?? DUPLICATE_WINDOW_MS;
    this.log = o.log;
  }
}
