import { ENDPOINT_BY_NAME } from '../api/endpoints.js';
import { LIMITS } from '../api/enums.js';
import type { CallOptions, CallResult } from './call-types.js';
import { ValidationError } from './errors.js';
import type { CallInput } from './validate.js';

export interface PageProgress {
  pages: number;
  items: number;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface PageOptions {
  /** Stop after this many items (the last page is cut). */
  maxItems?: number;
  /** Stop after this many pages. */
  maxPages?: number;
  /** Called after each page. */
  onProgress?: (p: PageProgress) => void;
  signal?: AbortSignal;
  /** Deadline of each page's call. */
  deadlineMs?: number;
}

interface Caller {
  call<T>(name: string, opts: CallOptions): Promise<CallResult<T>>;
}

interface ListEnvelope<T> {
  data: T[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/**
 * Every item of a list endpoint, page after page (Pagination: follow next_cursor until
 * has_more is false). Pages are as large as the service allows, so a read token buys as
 * many items as it can, but never more than maxItems asks for.
 */
export async function* paginate<T>(client: Caller, name: string, input: CallInput = {}, opts: PageOptions = {}): AsyncGenerator<T, void, undefined> {
  const e = ENDPOINT_BY_NAME.get(name);
  if (e?.returns !== 'list') throw new ValidationError('invalid_request', name, `${name} is not a list endpoint.`, 'endpoint');
  const maxItems = opts.maxItems ?? Number.POSITIVE_INFINITY;
  const maxPages = opts.maxPages ?? Number.POSITIVE_INFINITY;
  const { starting_after, ...rest } = (input.query ?? {}) as Record<string, unknown>;
  const query: Record<string, unknown> = { ...rest };
  if (starting_after !== undefined && query.cursor === undefined) query.cursor = starting_after;
  const pageable = 'cursor' in e.query;
  let items = 0;
  let pages = 0;
  for (;;) {
    if (items >= maxItems || pages >= maxPages) return;
    const q = { ...query };
    if ('limit' in e.query && q.limit === undefined) q.limit = Math.min(LIMITS.page_max, maxItems - items);
    const r = await client.call<ListEnvelope<T>>(name, { ...input, query: q, signal: opts.signal, deadlineMs: opts.deadlineMs });
    const page = r.data;
    pages++;
    const hasMore = page.has_more === true && typeof page.next_cursor === 'string' && pageable;
    for (const item of page.data ?? []) {
      if (items >= maxItems) break;
      items++;
      yield item;
    }
    opts.onProgress?.({ pages, items, hasMore, nextCursor: page.next_cursor ?? null });
    if (!hasMore) return;
    query.cursor = page.next_cursor;
  }
}
