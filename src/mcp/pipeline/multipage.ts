import type { CallOptions, CallResult, PageProgress } from '../../client/index.js';
import { isReplyInboxError } from '../../client/errors.js';
import { paginate } from '../../client/paginate.js';
import type { ApiCaller } from '../tool/context.js';

export interface MultiPageEnvelope {
  object: 'list';
  data: unknown[];
  has_more: boolean;
  next_cursor: string | null;
  pages_read: number;
  partial?: true;
  /** Why the read stopped early: 'cancelled' or the error code of the page that failed. */
  partial_reason?: string;
}

export interface MultiPageOptions {
  maxItems: number;
  signal: AbortSignal;
  /** After each page that brought items: the running count, the bound, a line for a person. */
  onPage?: (items: number, bound: number, message: string) => void;
  /** After each page: how many items precede the next page, and the cursor that starts it. */
  onBoundary?: (items: number, cursor: string | null) => void;
}

/**
 * Read pages of one list endpoint with the client's paginate, under its rate limiter, into
 * one envelope. A failure after the first page (a cancellation, a page refused) keeps what
 * was read and marks it partial; has_more and next_cursor then continue after the last
 * page that arrived. A failure of the first page is the call's answer, as for one page.
 */
export async function readPages(
  api: ApiCaller,
  name: string,
  req: { path?: Record<string, string>; query?: Record<string, unknown> },
  o: MultiPageOptions,
): Promise<MultiPageEnvelope> {
  // Pages are sized by paginate (as large as allowed, never past the bound): a caller's
  // limit would cut a page short of its own next_cursor.
  const { limit: _pageSize, ...query } = req.query ?? {};
  const caller = {
    call: async <T>(n: string, opts: CallOptions) =>
      (await api.call(n, { path: opts.path, query: opts.query, body: opts.body, signal: opts.signal })) as CallResult<T>,
  };
  const items: unknown[] = [];
  let last: PageProgress = { pages: 0, items: 0, hasMore: false, nextCursor: null };
  const onProgress = (p: PageProgress) => {
    if (p.items > last.items) o.onPage?.(p.items, o.maxItems, `page ${p.pages}: ${p.items} item${p.items === 1 ? '' : 's'} read`);
    if (p.hasMore) o.onBoundary?.(p.items, p.nextCursor);
    last = p;
  };
  try {
    for await (const item of paginate(caller, name, { path: req.path, query }, { maxItems: o.maxItems, signal: o.signal, onProgress })) items.push(item);
  } catch (err) {
    const cancelled = o.signal.aborted;
    if (last.pages === 0 && !cancelled) throw err;
    const reason = cancelled ? 'cancelled' : isReplyInboxError(err) ? (err as { code: string }).code : 'internal_error';
    return {
      object: 'list',
      data: items.slice(0, last.items),
      has_more: last.pages === 0 || last.hasMore,
      next_cursor: last.nextCursor,
      pages_read: last.pages,
      partial: true,
      partial_reason: reason,
    };
  }
  return { object: 'list', data: items, has_more: last.hasMore, next_cursor: last.hasMore ? last.nextCursor : null, pages_read: last.pages };
}

/**
 * The API as a multi-page tool sees it: its own list endpoint is read page after page,
 * anything else it calls goes through unchanged. The tool's own shaping (compact rows,
 * text) then applies to the whole read as it would to one page.
 */
export function multiPageApi(api: ApiCaller, listName: string, o: MultiPageOptions): ApiCaller & { envelope(): MultiPageEnvelope | null } {
  let envelope: MultiPageEnvelope | null = null;
  return {
    async call(name, req) {
      if (name !== listName) return api.call(name, req);
      envelope = await readPages(api, name, req, o);
      return { data: envelope };
    },
    envelope: () => envelope,
  };
}

/** One line for the model on what the multi-page read did. */
export function multiPageSummary(e: MultiPageEnvelope): string {
  const read = `Read ${e.data.length} item${e.data.length === 1 ? '' : 's'} over ${e.pages_read} page${e.pages_read === 1 ? '' : 's'}`;
  if (e.partial)
    return `${read}; stopped early (${e.partial_reason}): the result is partial${e.next_cursor ? `; continue with cursor "${e.next_cursor}"` : ''}.`;
  return `${read}${e.has_more ? `; more remain: continue with cursor "${e.next_cursor}"` : '; that is the whole list'}.`;
}
