import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const code = (r: { body: any }) => r.body?.error?.code;

describe('Authentication rule 1: every request needs Authorization: Bearer <API_KEY>, even the meta endpoints', () => {
  it.each(['/v1/me', '/v1/capabilities', '/v1/workspaces'])('GET %s without a header is 401 missing_authorization', async (path) => {
    const r = await api.get(path, { key: null });
    expect(r.status).toBe(401);
    expect(code(r)).toBe('missing_authorization');
  });
});

describe('Authentication rule 5: failure mapping', () => {
  it.each([
    ['a header that is not Bearer', 'Basic dXNlcjpwYXNz', 401, 'malformed_key'],
    ['a Bearer value not of the key format', 'Bearer rik_live_short_abc', 401, 'malformed_key'],
    ['a well-formed key nobody issued', 'Bearer rik_live_nobody00_00000000000000000000000000000000', 401, 'invalid_key'],
  ])('%s gives %i %s', async (_what, authorization, status, expected) => {
    const r = await api.get('/v1/me', { authorization });
    expect(r.status).toBe(status);
    expect(code(r)).toBe(expected);
  });

  it.each([
    ['revoked', 401, 'key_revoked'],
    ['expired', 401, 'key_expired'],
    ['deactivated', 401, 'owner_deactivated'],
    ['test', 403, 'test_keys_unsupported'],
  ] as const)('the %s key gives %i %s', async (key, status, expected) => {
    const r = await api.get('/v1/me', { key });
    expect(r.status).toBe(status);
    expect(code(r)).toBe(expected);
    expect(typeof r.body.error.message).toBe('string');
  });

  it('a missing scope is 403 insufficient_scope naming required_scope', async () => {
    const r = await api.get('/v1/workspaces/acme/insights/summary', { key: 'rep' });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'insights:read' });
  });

  it("a workspace outside the key's reach is 403 workspace_forbidden", async () => {
    const r = await api.get('/v1/workspaces/globex', { key: 'rep' });
    expect(r.status).toBe(403);
    expect(code(r)).toBe('workspace_forbidden');
    const unknown = await api.get('/v1/workspaces/nowhere', { key: 'rep' });
    expect(code(unknown)).toBe('workspace_forbidden');
  });

  it('an all-workspaces key asking for a workspace that does not exist gets 404 not_found', async () => {
    const r = await api.get('/v1/workspaces/nowhere');
    expect(r.status).toBe(404);
    expect(code(r)).toBe('not_found');
  });
});

describe("Authentication rule 4: usable scopes = granted ∩ what the owner's role permits", () => {
  it('the demoted key lists insights:read in scopes_withheld and not in scopes', async () => {
    const r = await api.get('/v1/me', { key: 'demoted' });
    expect(r.status).toBe(200);
    expect(r.body.scopes_withheld).toEqual(['insights:read']);
    expect(r.body.scopes).not.toContain('insights:read');
    expect(r.body.granted_scopes).toEqual(r.body.scopes);
    expect(r.body.scopes).toHaveLength(16);
  });

  it('a withheld scope is refused like a missing one', async () => {
    const r = await api.get('/v1/workspaces/acme/insights/summary', { key: 'demoted' });
    expect(r.status).toBe(403);
    expect(r.body.error.required_scope).toBe('insights:read');
  });

  it('demotion or promotion of the owner changes the key at once', async () => {
    api.sandbox.control.setUserRole('usr_dee', 'admin');
    try {
      const r = await api.get('/v1/me', { key: 'demoted' });
      expect(r.body.scopes).toContain('insights:read');
      expect(r.body.scopes_withheld).toEqual([]);
    } finally {
      api.sandbox.control.setUserRole('usr_dee', 'user');
    }
    const after = await api.get('/v1/me', { key: 'demoted' });
    expect(after.body.scopes_withheld).toEqual(['insights:read']);
  });

  it('the admin key holds all 17 scopes', async () => {
    const r = await api.get('/v1/me');
    expect(r.body.scopes).toHaveLength(17);
    expect(r.body.scopes_withheld).toEqual([]);
  });
});

describe('Authentication rule 3: a key reaches its set of workspaces; an all-workspaces key reaches all', () => {
  it('the admin key reaches acme, globex and the inactive initech', async () => {
    const r = await api.get('/v1/me');
    expect(r.body.key.all_workspaces).toBe(true);
    expect(r.body.workspaces.map((w: any) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
    expect((await api.get('/v1/workspaces/initech')).status).toBe(200);
  });

  it('the rep key reaches acme only', async () => {
    const r = await api.get('/v1/workspaces', { key: 'rep' });
    expect(r.body.data.map((w: any) => w.id)).toEqual(['acme']);
  });

  it('me gives the one-part owner id and a two-part member id per workspace, with the deprecated slug alias', async () => {
    const r = await api.get('/v1/me', { key: 'rep' });
    expect(r.body.owner.id).toMatch(/^usr_[a-z0-9]+$/);
    const ws = r.body.workspaces[0];
    expect(ws).toMatchObject({ object: 'workspace', id: 'acme', slug: 'acme' });
    expect(ws.member_id).toMatch(/^usr_[a-z0-9]+_[a-z0-9]+$/);
  });
});

describe('Authentication rule 2 and 10: secrets never appear in a response', () => {
  it('no response carries a key secret or an upstream platform token', async () => {
    const bodies = await Promise.all([
      api.get('/v1/me'),
      api.get('/v1/workspaces'),
      api.get('/v1/workspaces/acme', { query: { include: 'sdr_notes' } }),
      api.get('/v1/capabilities'),
    ]);
    const text = JSON.stringify(bodies.map((b) => b.body));
    for (const secret of Object.values(api.sandbox.keys)) expect(text).not.toContain(secret.slice(-32));
    expect(text).not.toMatch(/upt_/);
  });

  it('the key is stored only as a hash', () => {
    const stored = JSON.stringify([...api.sandbox.store.keysByHash.values()]);
    for (const secret of Object.values(api.sandbox.keys)) expect(stored).not.toContain(secret);
  });
});

describe('Authentication rule 9: mobile sessions (shapes are our choice, docs/spec-gaps.md)', () => {
  it('a session token works as a bearer credential, one active session per user, revocation is immediate', async () => {
    const first = await api.call('POST', '/v1/mobile/session', { key: 'rep', body: { device_name: 'Ben phone' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'mobile_session', device_name: 'Ben phone', user_id: 'usr_ben' });
    expect(first.body.token).toMatch(/^rims_/);
    expect(first.body.effects.provider_writes).toEqual([]);
    expect(Date.parse(first.body.expires_at) - Date.parse(first.body.created_at)).toBe(30 * 86_400_000);
    const asSession = await api.get('/v1/me', { authorization: `Bearer ${first.body.token}` });
    expect(asSession.status).toBe(200);
    expect(asSession.body.owner.id).toBe('usr_ben');

    const second = await api.call('POST', '/v1/mobile/session', { key: 'rep', body: {} });
    expect(second.status).toBe(201);
    const old = await api.get('/v1/me', { authorization: `Bearer ${first.body.token}` });
    expect(old.status).toBe(401);

    const revoked = await api.call('DELETE', '/v1/mobile/session', { authorization: `Bearer ${second.body.token}` });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const after = await api.get('/v1/me', { authorization: `Bearer ${second.body.token}` });
    expect(after.status).toBe(401);
    const none = await api.call('DELETE', '/v1/mobile/session', { key: 'rep' });
    expect(none.status).toBe(404);
  });
});

describe('control.issueKey: more keys than the fixed ones, for tests and benchmarks of many keys', () => {
  it('an issued key answers /v1/me like its model, under an id of its own', async () => {
    const key = api.sandbox.control.issueKey('rep');
    const r = await api.get('/v1/me', { authorization: `Bearer ${key}` });
    const model = await api.get('/v1/me', { key: 'rep' });
    expect(r.status).toBe(200);
    expect(r.body.key.id).not.toBe(model.body.key.id);
    expect(r.body.key.scopes).toEqual(model.body.key.scopes);
    expect(r.body.user).toEqual(model.body.user);
    expect(JSON.stringify([...api.sandbox.store.keysByHash.values()])).not.toContain(key);
  });
});
