import { type SortKey, compareKeys } from '../paging.js';

/**
 * Records of one kind, by id and by workspace, with sorted views for keyset paging that
 * are rebuilt only after a change. Records are never removed (spec rule 8: no hard delete).
 */
export class Collection<T extends { id: string }> {
  private readonly byId = new Map<string, T>();
  private readonly groups = new Map<string, T[]>();
  private readonly sortedCache = new Map<string, { version: number; items: T[] }>();
  private readonly groupVersion = new Map<string, number>();

  constructor(private readonly groupOf: (t: T) => string | null) {}

  get size(): number {
    return this.byId.size;
  }
  add(rec: T): T {
    if (this.byId.has(rec.id)) throw new Error(`duplicate id ${rec.id}`);
    this.byId.set(rec.id, rec);
    const g = this.groupOf(rec);
    if (g !== null) {
      let arr = this.groups.get(g);
      if (!arr) this.groups.set(g, (arr = []));
      arr.push(rec);
      this.touch(g);
    }
    return rec;
  }
  get(id: string): T | undefined {
    return this.byId.get(id);
  }
  all(): IterableIterator<T> {
    return this.byId.values();
  }
  inGroup(group: string): readonly T[] {
    return this.groups.get(group) ?? [];
  }
  /** Call after changing a field that a sorted view depends on. */
  touch(group: string): void {
    this.groupVersion.set(group, (this.groupVersion.get(group) ?? 0) + 1);
  }
  /** The group's records sorted ascending by `keyOf`; cached until the group is touched. */
  sorted(group: string, name: string, keyOf: (t: T) => SortKey): readonly T[] {
    const version = this.groupVersion.get(group) ?? 0;
    const cacheKey = `${group}\u0000${name}`;
    const hit = this.sortedCache.get(cacheKey);
    if (hit && hit.version === version) return hit.items;
    const items = [...this.inGroup(group)].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    this.sortedCache.set(cacheKey, { version, items });
    return items;
  }
}

/** A secondary index from a key (e.g. lead id) to the records that hang off it. */
export class MultiIndex<T> {
  private readonly map = new Map<string, T[]>();
  add(key: string, rec: T): void {
    let arr = this.map.get(key);
    if (!arr) this.map.set(key, (arr = []));
    arr.push(rec);
  }
  get(key: string): readonly T[] {
    return this.map.get(key) ?? [];
  }
}
