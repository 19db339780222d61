import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError } from '../../src/client/index.js';
import type { ApiClient } from '../../src/mcp/declare/tool-context.js';
import { multiPageApi, multiPageSummary, readPages } from '../../src/mcp/reads/multipage.js';
import { endpoint } from '../../src/api/endpoints.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { MAX_ITEMS_BOUND, MULTI_PAGE_ARGS, isMultiPage, itemBound } from '../../src/mcp/declare/shared-args.js';

type Req = { path?: Record<string, string>; query?: Record<string, unknown>; signal?: AbortSignal };

/**
 * A list of `total` items served in pages by cursor (an index), recording each request.
 * `failAt` makes that page (1-based) fail with the given error.
 */
function fakeList(total: number, opts: { failAt?: number; error?: Error; onPage?: (n: number) => void } = {}) {
  const items = Array.from({ length: total }, (_, i) => ({ object: 'lead', id: `lead_${String(i).padStart(4, '0')}` }));
  const requests: Record<string, unknown>[] = [];
  const api: ApiClient = {
    async call(_name, req: Req) {
      requests.push({ ...req.query });
      opts.onPage?.(requests.length);
      if (req.signal?.aborted) throw new CancelledError('list_leads', 'no');
      if (opts.failAt === requests.length)
        throw opts.error ?? new ApiError({ status: 502, code: 'upstream_error', message: 'upstream down', endpoint: 'list_leads' });
      const start = req.query?.cursor ? Number(req.query.cursor) : 0;
      const limit = Number(req.query?.limit ?? 50);
      const data = items.slice(start, start + limit);
      const end = start + data.length;
      return { data: { object: 'list', data, has_more: end < total, next_cursor: end < total ? String(end) : null } };
    },
  };
  return { api, requests, items };
}
const ids = (xs: unknown[]) => xs.map((x) => (x as { id: string }).id);
const never = new AbortController().signal;

describe('which tools page: a list endpoint with a cursor, never a write', () => {
  it('list_leads, list_tasks and list_campaigns do; get_conversation (no cursor), list_workspaces and set_assignees do not', () => {
    for (const n of ['list_leads', 'list_tasks', 'list_campaigns', 'get_daily_insights'] as const) expect(isMultiPage(endpoint(n)), n).toBe(true);
    for (const n of ['get_conversation', 'list_workspaces', 'get_assignees', 'set_assignees', 'get_lead'] as const)
      expect(isMultiPage(endpoint(n)), n).toBe(false);
  });

  it('every such tool publishes max_items and all; no other tool does', () => {
    for (const t of ALL_TOOLS) {
      const shape = t.input.shape as Record<string, unknown>;
      expect('max_items' in shape && 'all' in shape, t.name).toBe(isMultiPage(t.endpoint));
      expect(t.multiPage, t.name).toBe(isMultiPage(t.endpoint));
    }
    expect(ALL_TOOLS.filter((t) => t.multiPage).length).toBeGreaterThan(10);
  });

  it('max_items is 1..bound; all is a boolean; max_items wins over all', () => {
    expect(MULTI_PAGE_ARGS.max_items.safeParse(0).success).toBe(false);
    expect(MULTI_PAGE_ARGS.max_items.safeParse(MAX_ITEMS_BOUND + 1).success).toBe(false);
    expect(MULTI_PAGE_ARGS.max_items.safeParse(2.5).success).toBe(false);
    expect(itemBound({})).toBeUndefined();
    expect(itemBound({ all: false })).toBeUndefined();
    expect(itemBound({ all: true })).toBe(MAX_ITEMS_BOUND);
    expect(itemBound({ all: true, max_items: 30 })).toBe(30);
  });
});

describe('readPages: pages as large as allowed, never past the bound, merged into one envelope', () => {
  it('450 of 1000: pages of 200, 200, 50; has_more and the cursor after the last item read', async () => {
    const { api, requests, items } = fakeList(1000);
    const env = await readPages(
      (n, r) => api.call(n, r),
      'list_leads',
      { path: { workspace: 'acme' }, query: { status: ['interested'] } },
      { maxItems: 450, signal: never },
    );
    expect(requests.map((q) => q.limit)).toEqual([200, 200, 50]);
    for (const q of requests) expect(q.status).toEqual(['interested']);
    expect(ids(env.data)).toEqual(ids(items.slice(0, 450)));
    expect(env).toMatchObject({ object: 'list', has_more: true, next_cursor: '450', pages_read: 3 });
    expect(env.partial).toBeUndefined();
  });

  it('a list shorter than the bound: all of it, has_more false, no cursor', async () => {
    const { api } = fakeList(230);
    const env = await readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 1000, signal: never });
    expect(env).toMatchObject({ has_more: false, next_cursor: null, pages_read: 2 });
    expect(env.data).toHaveLength(230);
  });

  it("a caller's limit is not sent (it would cut pages short of their cursors); a caller's cursor is where reading starts", async () => {
    const { api, requests, items } = fakeList(500);
    const env = await readPages((n, r) => api.call(n, r), 'list_leads', { query: { limit: 7, cursor: '100' } }, { maxItems: 300, signal: never });
    expect(requests.map((q) => q.limit)).toEqual([200, 100]);
    expect(ids(env.data)).toEqual(ids(items.slice(100, 400)));
  });

  it('progress after each page that brought items: count, bound and a line', async () => {
    const { api } = fakeList(450);
    const seen: [number, number, string][] = [];
    await readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 1000, signal: never, onPage: (n, b, m) => void seen.push([n, b, m]) });
    expect(seen).toEqual([
      [200, 1000, 'page 1: 200 items read'],
      [400, 1000, 'page 2: 400 items read'],
      [450, 1000, 'page 3: 450 items read'],
    ]);
  });
});

describe('readPages: cancellation stops at once and returns what was read, marked partial', () => {
  it('cancelled while page 3 is asked for: two pages kept, partial, the cursor after page 2, no page 4', async () => {
    const ac = new AbortController();
    const { api, requests, items } = fakeList(1000, { onPage: (n) => n === 3 && ac.abort() });
    const env = await readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 1000, signal: ac.signal });
    expect(requests).toHaveLength(3);
    expect(ids(env.data)).toEqual(ids(items.slice(0, 400)));
    expect(env).toMatchObject({ partial: true, partial_reason: 'cancelled', pages_read: 2, has_more: true, next_cursor: '400' });
  });

  it('cancelled before the first page: an empty partial answer, to start over', async () => {
    const ac = new AbortController();
    ac.abort();
    const { api } = fakeList(10);
    const env = await readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 100, signal: ac.signal });
    expect(env).toMatchObject({ data: [], partial: true, partial_reason: 'cancelled', pages_read: 0, next_cursor: null });
  });
});

describe('readPages: a page that fails', () => {
  it('after the first page: what was read, partial, with the failing code', async () => {
    const { api } = fakeList(1000, { failAt: 2 });
    const env = await readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 1000, signal: never });
    expect(env).toMatchObject({ partial: true, partial_reason: 'upstream_error', pages_read: 1, next_cursor: '200' });
    expect(env.data).toHaveLength(200);
  });

  it('the first page: the error is the answer, as for one page', async () => {
    const { api } = fakeList(1000, {
      failAt: 1,
      error: new ApiError({ status: 400, code: 'invalid_request', message: 'bad', endpoint: 'list_leads', param: 'status' }),
    });
    await expect(readPages((n, r) => api.call(n, r), 'list_leads', {}, { maxItems: 1000, signal: never })).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'status',
    });
  });
});

describe("multiPageApi: the tool's own list is read a page at a time, other calls go through", () => {
  it('list_leads: one page at first, a page more at each readMore up to the bound, then no more; get_me passes unchanged', async () => {
    const { api, requests, items } = fakeList(300);
    const paging = multiPageApi(api, 'list_leads', { maxItems: 250, signal: never });
    expect(paging.envelope()).toBeNull();
    expect(await paging.readMore(), 'nothing to read on before the first read').toBe(false);
    const first = await paging.call('list_leads', { query: { limit: 10 } });
    expect(ids((first.data as { data: unknown[] }).data)).toEqual(ids(items.slice(0, 200)));
    expect(paging.envelope()).toMatchObject({ pages_read: 1, has_more: true, next_cursor: '200' });
    expect(await paging.readMore()).toBe(true);
    // The tool asks again: what was read and the page more, with no page read twice.
    const again = await paging.call('list_leads', { query: { limit: 10 } });
    expect(ids((again.data as { data: unknown[] }).data)).toEqual(ids(items.slice(0, 250)));
    expect(requests.map((q) => [q.cursor, q.limit])).toEqual([
      [undefined, 200],
      ['200', 50],
    ]);
    expect(paging.envelope()).toMatchObject({ pages_read: 2, has_more: true, next_cursor: '250' });
    expect(await paging.readMore(), 'the bound is reached').toBe(false);
    await paging.call('get_me', { query: { limit: 10 } });
    expect(requests.at(-1)).toEqual({ limit: 10 });
  });

  it('a page that fails on reading more: what was read, marked partial; then nothing more', async () => {
    const { api } = fakeList(1000, { failAt: 2 });
    const paging = multiPageApi(api, 'list_leads', { maxItems: 1000, signal: never });
    await paging.call('list_leads', {});
    expect(await paging.readMore()).toBe(true);
    expect(paging.envelope()).toMatchObject({ partial: true, partial_reason: 'upstream_error', pages_read: 1, has_more: true, next_cursor: '200' });
    expect(paging.envelope()?.data).toHaveLength(200);
    expect(await paging.readMore()).toBe(false);
  });
});

describe('multiPageSummary: one line on how far the read went', () => {
  it('whole list, more remaining, stopped early', () => {
    expect(multiPageSummary({ object: 'list', data: [1], has_more: false, next_cursor: null, pages_read: 1 })).toBe(
      'Read 1 item over 1 page; that is the whole list.',
    );
    expect(multiPageSummary({ object: 'list', data: [1, 2], has_more: true, next_cursor: 'c2', pages_read: 2 })).toBe(
      'Read 2 items over 2 pages; more remain: continue with cursor "c2".',
    );
    expect(multiPageSummary({ object: 'list', data: [], has_more: true, next_cursor: null, pages_read: 0, partial: true, partial_reason: 'cancelled' })).toBe(
      'Read 0 items over 0 pages; stopped early (cancelled): the result is partial.',
    );
  });
});
