import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('Pagination: the list envelope is object=list, data, has_more, next_cursor; no totals, no offsets', () => {
  it('a members page', async () => {
    const r = (await api.get('/v1/workspaces/acme/members')).body;
    expect(Object.keys(r).sort()).toEqual(['data', 'has_more', 'next_cursor', 'object']);
    expect(r.object).toBe('list');
    expect(r.has_more).toBe(false);
    expect(r.next_cursor).toBeNull();
  });
});

describe('Pagination: limit is an integer 1..200, default 50; larger values are clamped', () => {
  it.each([['0'], ['-3'], ['ten'], ['1.5']])('limit=%s is 400 invalid_request naming limit', async (limit) => {
    const r = await api.get('/v1/workspaces/acme/members', { query: { limit } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
  });
  it('limit=100000 is clamped, not refused', async () => {
    const r = await api.get('/v1/workspaces/acme/members', { query: { limit: 100000 } });
    expect(r.status).toBe(200);
  });
});

describe('Pagination: page until has_more is false; each item once', () => {
  it('walking the members one at a time gives every member exactly once', async () => {
    const whole = (await api.get('/v1/workspaces/acme/members', { query: { limit: 200 } })).body.data.map((m: any) => m.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const q: Record<string, string | number> = { limit: 1 };
      if (cursor) q.cursor = cursor;
      const r = (await api.get('/v1/workspaces/acme/members', { query: q })).body;
      seen.push(...r.data.map((m: any) => m.id));
      if (!r.has_more) {
        expect(r.next_cursor).toBeNull();
        break;
      }
      expect(typeof r.next_cursor).toBe('string');
      cursor = r.next_cursor;
    }
    expect(seen).toEqual(whole);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('Pagination: the cursor is opaque; an invalid cursor gives 400 invalid_cursor', () => {
  it('an edited cursor', async () => {
    const r1 = (await api.get('/v1/workspaces/acme/members', { query: { limit: 1 } })).body;
    const edited = `${r1.next_cursor.slice(0, -2)}xx`;
    const r = await api.get('/v1/workspaces/acme/members', { query: { cursor: edited } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
  it("a cursor of another workspace's list", async () => {
    const acme = (await api.get('/v1/workspaces/acme/members', { query: { limit: 1 } })).body;
    const r = await api.get('/v1/workspaces/globex/members', { query: { cursor: acme.next_cursor } });
    expect(r.body.error.code).toBe('invalid_cursor');
  });
  it('garbage', async () => {
    const r = await api.get('/v1/workspaces/acme/members', { query: { cursor: 'not-a-cursor' } });
    expect(r.body.error.code).toBe('invalid_cursor');
  });
});
