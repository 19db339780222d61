import type { Endpoint } from '../api/endpoints.js';
import { LIMITS } from '../api/enums.js';
import type { CallResult, RowCallOptions } from './call-types.js';
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

/** What paging needs of the client: a call of a row of the table, and its data. */
export interface RowCaller {
  request(e: Endpoint, opts: RowCallOptions): Promise<Pick<CallResult<unknown>, 'data'>>;
}

interface ListEnvelope {
  data?: unknown[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/**
 * Every item of a list endpoint, page after page (Pagination: follow next_cursor until
 * has_more is false). Pages are as large as the service allows, so a read token buys as
 * many items as it can, but never more than maxItems asks for.
 */
export async function* paginate(client: RowCaller, e: Endpoint, input: CallInput = {}, opts: PageOptions = {}): AsyncGenerator<unknown, void, undefined> {
  if (e.returns !== 'list') throw new ValidationError('invalid_request', e.name, `${e.name} is not a list endpoint.`, 'endpoint');
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
    const r = await client.request(e, { ...input, query: q, signal: opts.signal, deadlineMs: opts.deadlineMs });
    // A page as the service answers it (general rule: list endpoints answer this envelope).
    const page = r.data as ListEnvelope;
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
