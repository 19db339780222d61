import type { PageProgress } from '../../client/index.js';
import { isReplyInboxError } from '../../client/errors.js';
import { type RowCaller, paginate } from '../../client/paginate.js';
import { type EndpointName, endpoint } from '../../api/endpoints.js';
import type { ApiClient, ApiRequest, Send } from '../declare/tool-context.js';

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

type ListRequest = Pick<ApiRequest, 'path' | 'query'>;

/**
 * One list endpoint read page after page with the client's paginate, under its rate limiter,
 * as far as asked at a time: what was read is kept, and the next read goes on after it. A
 * failure after the first page (a cancellation, a page refused) keeps what was read and marks
 * it partial; has_more and next_cursor then continue after the last page that arrived. A
 * failure of the first page is the call's answer, as for one page.
 */
export class PageReader {
  private readonly items: unknown[] = [];
  private pages = 0;
  private hasMore = true;
  private cursor: string | null;
  private readonly filters: Record<string, unknown>;
  private stopped: string | undefined;

  constructor(
    private readonly send: Send,
    private readonly name: EndpointName,
    private readonly req: ListRequest,
    private readonly o: MultiPageOptions,
  ) {
    // Pages are sized by paginate (as large as allowed, never past the bound): a caller's
    // limit would cut a page short of its own next_cursor.
    const { limit: _pageSize, cursor, ...filters } = req.query ?? {};
    this.filters = filters;
    this.cursor = typeof cursor === 'string' ? cursor : null;
  }

  /** Nothing more to read: the end of the list, the bound, or a failure. */
  get done(): boolean {
    return this.stopped !== undefined || !this.hasMore || this.items.length >= this.o.maxItems;
  }

  /** Read up to `pages` more pages (all of them by default). */
  async read(pages = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.done) return;
    const caller: RowCaller = {
      request: (e, opts) => this.send(e.name, { path: opts.path, query: opts.query, body: opts.body, signal: opts.signal }),
    };
    const base = { items: this.items.length, pages: this.pages };
    const got: unknown[] = [];
    const onProgress = (p: PageProgress) => {
      const items = base.items + p.items;
      if (items > this.items.length) this.o.onPage?.(items, this.o.maxItems, `page ${base.pages + p.pages}: ${items} item${items === 1 ? '' : 's'} read`);
      if (p.hasMore) this.o.onBoundary?.(items, p.nextCursor);
      // Only whole pages count as read: items of a page that failed are not kept.
      this.items.push(...got.splice(0, items - this.items.length));
      this.pages = base.pages + p.pages;
      this.hasMore = p.hasMore;
      this.cursor = p.nextCursor;
    };
    const query = { ...this.filters, ...(this.cursor ? { cursor: this.cursor } : {}) };
    const o = { maxItems: this.o.maxItems - base.items, maxPages: pages, signal: this.o.signal, onProgress };
    try {
      for await (const item of paginate(caller, endpoint(this.name), { path: this.req.path, query }, o)) got.push(item);
    } catch (err) {
      const cancelled = this.o.signal.aborted;
      if (this.pages === 0 && !cancelled) throw err;
      this.stopped = cancelled ? 'cancelled' : isReplyInboxError(err) ? (err as { code: string }).code : 'internal_error';
    }
  }

  /** What was read so far, as one list. */
  envelope(): MultiPageEnvelope {
    const more = this.stopped !== undefined ? this.pages === 0 || this.hasMore : this.hasMore && this.pages > 0;
    return {
      object: 'list',
      data: [...this.items],
      has_more: more,
      next_cursor: more && this.pages > 0 ? this.cursor : null,
      pages_read: this.pages,
      ...(this.stopped !== undefined ? { partial: true as const, partial_reason: this.stopped } : {}),
    };
  }
}

/** Read pages of one list endpoint up to the bound into one envelope (PageReader). */
export async function readPages(send: Send, name: EndpointName, req: ListRequest, o: MultiPageOptions): Promise<MultiPageEnvelope> {
  const reader = new PageReader(send, name, req, o);
  await reader.read();
  return reader.envelope();
}

/**
 * The API as a multi-page tool sees it: its own list endpoint is read one page at first, and
 * a page more at each readMore, so that no page is read that the answer cannot show; anything
 * else it calls is asked once, however often the tool runs again. The tool's own shaping
 * (compact rows, text) then applies to what was read as it would to one page.
 */
export function multiPageApi(
  api: ApiClient,
  listName: EndpointName,
  o: MultiPageOptions,
): ApiClient & { envelope(): MultiPageEnvelope | null; readMore(): Promise<boolean> } {
  let reader: PageReader | null = null;
  let asked = '';
  const others = new Map<string, ReturnType<ApiClient['call']>>();
  return {
    async call(name, req) {
      if (name !== listName) {
        // Every tool that pages is a read: the same request has the same answer within the call.
        const key = JSON.stringify([name, req.path, req.query, req.body]);
        if (!others.has(key)) others.set(key, api.call(name, req));
        return others.get(key)!;
      }
      // The tool asks again for the same list after readMore: it gets what was read, and the page more.
      const same = JSON.stringify([req.path, req.query]);
      if (!reader || same !== asked) {
        reader = new PageReader((n, r) => api.call(n, r), name, req, o);
        asked = same;
        await reader.read(1);
      }
      return { data: reader.envelope() };
    },
    envelope: () => reader?.envelope() ?? null,
    /** Read one page more; false when there is nothing more to read. */
    async readMore() {
      if (!reader || reader.done) return false;
      await reader.read(1);
      return true;
    },
  };
}

/** One line for the model on what the multi-page read did. */
export function multiPageSummary(e: MultiPageEnvelope): string {
  const read = `Read ${e.data.length} item${e.data.length === 1 ? '' : 's'} over ${e.pages_read} page${e.pages_read === 1 ? '' : 's'}`;
  if (e.partial)
    return `${read}; stopped early (${e.partial_reason}): the result is partial${e.next_cursor ? `; continue with cursor "${e.next_cursor}"` : ''}.`;
  return `${read}${e.has_more ? `; more remain: continue with cursor "${e.next_cursor}"` : '; that is the whole list'}.`;
}
