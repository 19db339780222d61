import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../scripts/harness/sandbox.js';

/** The workspaces area (src/api/table/workspaces.ts, src/sandbox/handlers/workspaces.ts): workspaces, members, capabilities. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('Resources: workspace', () => {
  it("has the spec's fields, no created_at, and features omit the removed surfaces", async () => {
    const w = (await api.get('/v1/workspaces/acme')).body;
    for (const f of ['object', 'id', 'name', 'domain', 'logo_url', 'active', 'features', 'granted_scopes', 'synced_at']) expect(w).toHaveProperty(f);
    expect(w).not.toHaveProperty('created_at');
    expect(w).not.toHaveProperty('counts');
    expect(Object.keys(w.features).sort()).toEqual(['events', 'inbox', 'reports', 'scheduling']);
  });
  it('include=counts,sdr_notes adds counts (served on the upstream bucket) and the playbook', async () => {
    const r = await api.get('/v1/workspaces/acme', { query: { include: 'counts,sdr_notes' } });
    expect(r.headers.get('x-ratelimit-bucket')).toBe('upstream');
    expect(r.body.counts).toEqual({ leads: expect.any(Number), open_tasks: expect.any(Number), meetings_upcoming: expect.any(Number) });
    expect(r.body.sdr_notes).toContain('<p>');
    const plain = await api.get('/v1/workspaces/acme', { query: { include: 'sdr_notes' } });
    expect(plain.headers.get('x-ratelimit-bucket')).toBe('read');
  });
  it("counts.meetings_upcoming are the meetings after the sandbox's time, not the wall clock's", async () => {
    const wall = api.sandbox.clock.now;
    const at = async (ms: number) => {
      api.sandbox.clock.now = () => ms;
      return (await api.get('/v1/workspaces/acme', { query: { include: 'counts' } })).body.counts.meetings_upcoming as number;
    };
    try {
      const starts = api.sandbox.store.meetings
        .inGroup('acme')
        .map((m: { starts_at: string | null }) => m.starts_at)
        .filter((s: string | null): s is string => s !== null)
        .map((s: string) => Date.parse(s))
        .sort((a: number, b: number) => a - b);
      expect(starts.length).toBeGreaterThan(1);
      expect(await at(starts[0]! - 1)).toBe(starts.length);
      expect(await at(starts[starts.length - 1]!)).toBe(0);
    } finally {
      api.sandbox.clock.now = wall;
    }
  });
  it('an unknown include value is 400 invalid_request', async () => {
    const r = await api.get('/v1/workspaces/acme', { query: { include: 'everything' } });
    expect(r.body.error).toMatchObject({ code: 'invalid_request', param: 'include' });
  });
});

describe('Resources: member', () => {
  it('the members list is the union of assigned people and active admins; admins are assignable only when the workspace allows it', async () => {
    const acme = (await api.get('/v1/workspaces/acme/members', { query: { limit: 200 } })).body.data;
    const ada = acme.find((m: any) => m.email === 'ada@acme.example');
    expect(ada).toMatchObject({ role: 'admin', assignable: true });
    const globex = (await api.get('/v1/workspaces/globex/members', { query: { limit: 200 } })).body.data;
    const gus = globex.find((m: any) => m.email === 'gus@globex.example');
    expect(gus).toMatchObject({ role: 'admin', assignable: false });
    expect(globex.find((m: any) => m.email === 'ada@acme.example')).toMatchObject({ role: 'admin', assignable: false });
  });
  it('a deactivated person is active=false and not assignable; filters active and assignable', async () => {
    const all = (await api.get('/v1/workspaces/acme/members', { query: { limit: 200 } })).body.data;
    const cy = all.find((m: any) => m.email === 'cy@acme.example');
    expect(cy).toMatchObject({ active: false, assignable: false });
    const active = (await api.get('/v1/workspaces/acme/members', { query: { active: true, limit: 200 } })).body.data;
    expect(active.length).toBe(all.length - 1);
    expect(active.every((m: any) => m.active)).toBe(true);
    const assignable = (await api.get('/v1/workspaces/acme/members', { query: { assignable: false } })).body.data;
    expect(assignable.map((m: any) => m.email)).toEqual(['cy@acme.example']);
  });
  it('member ids are two-part workspace-scoped ids', async () => {
    const all = (await api.get('/v1/workspaces/acme/members')).body.data;
    for (const m of all) expect(m.id).toMatch(/^usr_[a-z0-9]+_[a-z0-9]+$/);
  });
});

describe('Capabilities', () => {
  it("reports api_version v1 and the spec's enum lists", async () => {
    const c = (await api.get('/v1/capabilities')).body;
    expect(c.api_version).toBe('v1');
    expect(c.enums.lead_status).toEqual(['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged']);
    expect(c.enums.meeting_outcome).toEqual(['showed', 'no_show', 'no_show_host', 'cancelled', 'rescheduled']);
    expect(c.enums.asset_visibility).toEqual(['private', 'workspace']);
    expect(c.expansions).toMatchObject({ lead_list: ['assignees', 'campaign', 'open_tasks', 'tags'], max_per_request: 3 });
    expect(c.lead_priorities).toEqual({ owner_scoped: true, max_leads_per_request: 100 });
    expect(c.deprecated).toEqual([]);
    for (const k of ['notes', 'limits', 'filters', 'ids', 'lead_tags', 'lead_statuses', 'mobile_sessions', 'phases']) expect(c).toHaveProperty(k);
  });
});
