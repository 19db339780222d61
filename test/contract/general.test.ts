import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('General rule 1: bodies are JSON, and a request with a body carries Content-Type: application/json', () => {
  it('a body sent as text/plain is 400 invalid_request', async () => {
    const r = await api.call('POST', '/v1/mobile/session', { rawBody: '{}', contentType: 'text/plain' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
  });
  it('a body that is not JSON is 400 invalid_request', async () => {
    const r = await api.call('POST', '/v1/mobile/session', { rawBody: '{"device_name":' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
  });
  it('responses are JSON', async () => {
    const r = await api.get('/v1/me');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('General rule 2: every object has a string field `object` naming its kind', () => {
  it('me, capabilities, workspaces, members', async () => {
    expect((await api.get('/v1/me')).body.object).toBe('me');
    expect((await api.get('/v1/capabilities')).body.object).toBe('capabilities');
    const list = (await api.get('/v1/workspaces')).body;
    expect(list.object).toBe('list');
    for (const w of list.data) expect(w.object).toBe('workspace');
    const members = (await api.get('/v1/workspaces/acme/members')).body;
    for (const m of members.data) expect(m.object).toBe('member');
  });
});

describe('General rule 3: an id of one kind is not valid where another kind is expected', () => {
  it.each([
    ['/v1/workspaces/acme/leads/tsk_abc', 'lead_id'],
    ['/v1/workspaces/acme/leads/lead_a%2Fb', 'lead_id'],
    ['/v1/workspaces/acme/meetings/..%2F..%2Fme', 'meeting_id'],
  ])('GET %s is 400 invalid_id naming %s', async (path, param) => {
    const r = await api.get(path);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param });
  });
  it('PATCH /v1/workspaces/acme/tasks/lead_abc is 400 invalid_id naming task_id', async () => {
    const r = await api.call('PATCH', '/v1/workspaces/acme/tasks/lead_abc', { body: { notes: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'task_id' });
  });
  it('a wrong-kind id in a query filter is 400 invalid_id naming the parameter', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { campaign_id: 'lead_abc' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'campaign_id' });
  });
  it('a one-part user id is not a two-part member id', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { assignee_id: 'usr_ben' } });
    expect(r.body.error).toMatchObject({ code: 'invalid_id', param: 'assignee_id' });
  });
});

describe('General rule 4: timestamps are ISO 8601 UTC with a trailing Z', () => {
  it('me and members', async () => {
    const me = (await api.get('/v1/me')).body;
    const members = (await api.get('/v1/workspaces/acme/members')).body.data;
    const stamps = [me.created_at, me.expires_at, me.last_used_at, ...members.map((m: any) => m.created_at)].filter(Boolean);
    expect(stamps.length).toBeGreaterThan(3);
    for (const s of stamps) expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });
  // A date-time names a real calendar day: 2026-02-30 is not rolled over into March.
  it.each([
    ['/v1/workspaces/acme/leads', 'updated_since', '2026-02-30T00:00:00Z'],
    ['/v1/workspaces/acme/notes', 'created_since', '2026-11-31T08:00:00Z'],
    ['/v1/workspaces/acme/meetings', 'starts_after', '2027-02-29T00:00:00Z'],
    ['/v1/workspaces/acme/insights/summary', 'from', '2026-04-31T00:00:00Z'],
  ])('%s?%s=%s (a day that does not exist) is 400 invalid_request naming it', async (path, param, value) => {
    const r = await api.get(path, { query: { [param]: value } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param });
  });
  it('a date-time on 29 February of a leap year is accepted', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { updated_since: '2028-02-29T00:00:00Z' } });
    expect(r.status).toBe(200);
  });
});

describe('General rule 5: unknown query parameters are 400 unsupported_filter naming the parameter; unknown body fields are 400', () => {
  it('an unknown query parameter', async () => {
    const r = await api.get('/v1/workspaces/acme/members', { query: { colour: 'red' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'colour' });
  });
  it("a parameter the endpoint's row does not list (members take no order)", async () => {
    const r = await api.get('/v1/workspaces/acme/members', { query: { order: 'asc' } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'order' });
  });
  it('an endpoint with no query parameters refuses any', async () => {
    const r = await api.get('/v1/me', { query: { expand: 'all' } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'expand' });
  });
  it('an unknown body field is 400 invalid_request naming the field', async () => {
    const r = await api.call('POST', '/v1/mobile/session', { key: 'rep', body: { device_name: 'x', admin: true } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'admin' });
  });
  it('there is no sort_by: 400 unsupported_sort', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { sort_by: 'email' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unsupported_sort', param: 'sort_by' });
  });
  it('an order other than asc or desc is 400 unsupported_sort', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { order: 'random' } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_sort', param: 'order' });
  });
  it('an unknown value of a closed filter is 400 unsupported_filter', async () => {
    const r = await api.get('/v1/workspaces/acme/leads', { query: { status: 'interested,hot' } });
    expect(r.body.error).toMatchObject({ code: 'unsupported_filter', param: 'status' });
  });
  it('a parameter given twice is 400 invalid_request', async () => {
    const url = new URL('/v1/workspaces/acme/members?limit=1&limit=2', api.sandbox.baseUrl);
    const r = await fetch(url, { headers: { authorization: `Bearer ${api.sandbox.keys.admin}` } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.code).toBe('invalid_request');
  });
});

describe('General rule 7: every write response contains effects with provider_writes', () => {
  it('mobile session create and revoke', async () => {
    const c = await api.call('POST', '/v1/mobile/session', { key: 'admin', body: {} });
    expect(c.body.effects.provider_writes).toEqual([]);
    const d = await api.call('DELETE', '/v1/mobile/session', { key: 'admin' });
    expect(d.body.effects.provider_writes).toEqual([]);
  });
});

describe('Errors: the shape is {error: {code, message, param?, required_scope?, retry_after?}}', () => {
  it('an unknown path is a JSON 404 not_found', async () => {
    const r = await api.get('/v1/nothing/here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
  it('a known path with the wrong method is a JSON error', async () => {
    const r = await api.call('DELETE', '/v1/me');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});

describe('Errors: 500 internal_error is a service fault, still in the error envelope', () => {
  it('a handler that fails answers 500 internal_error in JSON, and the sandbox keeps serving', async () => {
    const lead = api.sandbox.store.leads.inGroup('acme')[0]!;
    const original = api.sandbox.store.conversationOf;
    api.sandbox.store.conversations.delete(lead.id);
    api.sandbox.store.conversationOf = () => {
      throw new Error('disk on fire');
    };
    try {
      const r = await api.get(`/v1/workspaces/acme/leads/${lead.id}/messages`);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
      expect(r.body.error.message).not.toContain('disk on fire');
    } finally {
      api.sandbox.store.conversationOf = original;
    }
    expect((await api.get(`/v1/workspaces/acme/leads/${lead.id}/messages`)).status).toBe(200);
  });
});
