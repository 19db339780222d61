import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EndpointName } from '../api/endpoints.js';
import { LIMITS } from '../api/enums.js';
import { fail } from './errors.js';

export type KeyPart = string | number | null;
export type SortKey = readonly KeyPart[];

/** Tuple order; null sorts lowest. */
export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/** Index of the first item whose key is > key (upper bound) in an ascending array. */
export function upperBound<T>(items: readonly T[], keyOf: (t: T) => SortKey, key: SortKey): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(items[mid] as T), key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/** Index of the first item whose key is >= key (lower bound). */
export function lowerBound<T>(items: readonly T[], keyOf: (t: T) => SortKey, key: SortKey): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(items[mid] as T), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface CursorPayload {
  e: string; // endpoint
  s: string; // scope: workspace, or workspace/lead
  o: 'asc' | 'desc';
  k: SortKey;
}

/** Opaque, signed cursors: a cursor made by another endpoint or edited by hand is invalid_cursor. */
export class Cursors {
  constructor(private readonly secret: string) {}
  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64url').slice(0, 22);
  }
  encode(p: CursorPayload): string {
    const data = Buffer.from(JSON.stringify(p)).toString('base64url');
    return `${data}.${this.sign(data)}`;
  }
  decode(cursor: string, endpoint: string, scope: string, order: 'asc' | 'desc'): SortKey {
    const [data, sig] = cursor.split('.');
    const bad = (why: string): never =>
      fail('invalid_cursor', `This cursor was not produced by this endpoint (${why}). Start again without a cursor.`, { param: 'cursor' });
    if (!data || !sig) return bad('malformed');
    const expected = Buffer.from(this.sign(data));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return bad('signature');
    let p: CursorPayload;
    try {
      p = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      return bad('malformed');
    }
    if (p.e !== endpoint || p.s !== scope) return bad('made for another list');
    if (p.o !== order) return bad(`made for order=${p.o}`);
    return p.k;
  }
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
  order?: 'asc' | 'desc';
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Keyset paging over an array sorted ascending by `keyOf`. Filters run before paging, so a
 * filtered page is never partial; an unfiltered page costs O(log n + limit).
 */
export function keysetPage<T, V = T>(opts: {
  cursors: Cursors;
  endpoint: EndpointName;
  scope: string;
  items: readonly T[];
  keyOf: (t: T) => SortKey;
  req: PageRequest;
  filter?: (t: T) => boolean;
  view?: (t: T) => V;
  defaultOrder?: 'asc' | 'desc';
}): ListPage<V> {
  const { items, keyOf, req } = opts;
  const order = req.order ?? opts.defaultOrder ?? 'desc';
  const limit = Math.min(req.limit ?? LIMITS.page_default, LIMITS.page_max);
  const after = req.cursor ? opts.cursors.decode(req.cursor, opts.endpoint, opts.scope, order) : null;
  const picked: T[] = [];
  let more = false;
  const take = (t: T): boolean => {
    if (opts.filter && !opts.filter(t)) return true;
    if (picked.length === limit) {
      more = true;
      return false;
    }
    picked.push(t);
    return true;
  };
  if (order === 'asc') {
    for (let i = after ? upperBound(items, keyOf, after) : 0; i < items.length; i++) if (!take(items[i] as T)) break;
  } else {
    for (let i = (after ? lowerBound(items, keyOf, after) : items.length) - 1; i >= 0; i--) if (!take(items[i] as T)) break;
  }
  const last = picked[picked.length - 1];
  return {
    object: 'list',
    data: picked.map((t) => (opts.view ? opts.view(t) : (t as unknown as V))),
    has_more: more,
    next_cursor: more && last !== undefined ? opts.cursors.encode({ e: opts.endpoint, s: opts.scope, o: order, k: keyOf(last) }) : null,
  };
}

/** A list that is small and returned whole (no paging parameters in its table row). */
export function wholeList<V>(data: V[]): ListPage<V> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}
