import type { Endpoint } from '../../api/endpoints.js';
import type { ApiClient, ApiRequest, Send } from '../declare/tool-context.js';

type Query = Record<string, unknown>;

/**
 * Where a list read can continue: the tool's own list request as sent, and the cursor at
 * each page boundary it crossed. When the result budget cuts the list after k items, the
 * read continues exactly at item k+1.
 */
export class Continuation {
  private request: { path?: ApiRequest['path']; query: Query } | null = null;
  private readonly boundaries: { offset: number; cursor: string | null }[] = [];

  constructor(
    private readonly e: Endpoint,
    private readonly send: Send,
  ) {}

  /** The client as the tool sees it, recording the tool's own list request. */
  wrap(api: ApiClient): ApiClient {
    return {
      call: (name, req) => {
        if (name === this.e.name) this.sent(req);
        return api.call(name, req);
      },
    };
  }

  /** The list request a read continues from, as sent. */
  sent(req: Pick<ApiRequest, 'path' | 'query'>): void {
    this.request = { path: req.path, query: { ...(req.query ?? {}) } };
  }

  /** A multi-page read crossed a page boundary (MultiPageOptions.onBoundary). */
  boundary(offset: number, cursor: string | null): void {
    this.boundaries.push({ offset, cursor });
  }

  /**
   * The cursor that starts right after the first `shown` items. At a page boundary it is
   * known; inside a page it costs one more call of the same bucket: the page's start, with
   * limit set to the items kept, answers with the exact next_cursor.
   */
  async cursorAfter(shown: number, signal: AbortSignal): Promise<string | null> {
    if (!this.request || !('cursor' in this.e.query) || !('limit' in this.e.query)) return null;
    const { cursor: first, limit: _limit, ...filters } = this.request.query;
    const starts = [{ offset: 0, cursor: typeof first === 'string' ? first : null }, ...this.boundaries];
    const start = starts.filter((s) => s.offset <= shown).at(-1)!;
    if (start.offset === shown) return shown === 0 ? null : start.cursor;
    try {
      const query = { ...filters, ...(start.cursor ? { cursor: start.cursor } : {}), limit: shown - start.offset };
      const r = await this.send(this.e.name, { path: this.request.path, query, signal });
      return nextCursorOf(r.data);
    } catch {
      // The continuation is a courtesy: without it the answer says how to ask for less instead.
      return null;
    }
  }
}

/** A page's next_cursor, as its row's schema reads it (a string, or null at the end). */
function nextCursorOf(page: unknown): string | null {
  const next = page !== null && typeof page === 'object' && 'next_cursor' in page ? page.next_cursor : null;
  return typeof next === 'string' ? next : null;
}
