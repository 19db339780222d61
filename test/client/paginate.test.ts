import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageProgress, ValidationError } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { client, sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ leads: 450 });
});
afterAll(() => sb.close());

const ws = { workspace: 'acme' };

describe('Pagination: page until has_more is false, following next_cursor', () => {
  it('for await over list_leads yields every lead once, in pages as large as the service allows', async () => {
    const { client: c } = client(sb);
    const progress: PageProgress[] = [];
    const ids: string[] = [];
    for await (const lead of c.paginate('list_leads', { path: ws }, { onProgress: (p) => progress.push(p) })) ids.push(lead.id);
    const expected = sb.store.leads.inGroup('acme').length;
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(progress.map((p) => p.pages)).toEqual(progress.map((_, i) => i + 1));
    expect(progress).toHaveLength(Math.ceil(expected / 200));
    expect(progress.at(-1)).toMatchObject({ items: expected, hasMore: false, nextCursor: null });
    await c.close();
  });

  it('maxItems bounds the items (the page size follows it), maxPages bounds the pages', async () => {
    const { client: c } = client(sb);
    const few: unknown[] = [];
    const p1: PageProgress[] = [];
    for await (const t of c.paginate('list_leads', { path: ws }, { maxItems: 120, onProgress: (p) => p1.push(p) })) few.push(t);
    expect(few).toHaveLength(120);
    expect(p1).toHaveLength(1);
    expect(p1[0]!.hasMore).toBe(true);
    const paged: unknown[] = [];
    const p2: PageProgress[] = [];
    for await (const t of c.paginate('list_leads', { path: ws, query: { limit: 50, order: 'asc' } }, { maxPages: 2, onProgress: (p) => p2.push(p) }))
      paged.push(t);
    expect(paged).toHaveLength(100);
    expect(p2.map((p) => p.items)).toEqual([50, 100]);
    await c.close();
  });

  it('a list without paging parameters is one page; a non-list endpoint is refused', async () => {
    const { client: c } = client(sb);
    const all: { id: string }[] = [];
    for await (const w of c.paginate('list_workspaces')) all.push(w);
    expect(all.map((w) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
    // @ts-expect-error get_lead answers no list: the compiler refuses it, and so does the client
    const it = c.paginate('get_lead', { path: { ...ws, lead_id: 'lead_x' } });
    await expect(it.next()).rejects.toBeInstanceOf(ValidationError);
    await c.close();
  });

  it('the signal stops the iteration between pages', async () => {
    const { client: c } = client(sb);
    const ctl = new AbortController();
    let n = 0;
    const run = (async () => {
      for await (const _ of c.paginate('list_leads', { path: ws, query: { limit: 20 } }, { signal: ctl.signal })) {
        if (++n === 30) ctl.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(n).toBe(40);
    await c.close();
  });
});
