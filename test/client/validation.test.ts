import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ValidationError } from '../../src/client/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ADMIN_KEY_ID, client, sandbox } from './helpers.js';

let sb: Sandbox;
let leadId: string;
// One long window: the bucket counts can only go down, so "nothing was sent" is visible.
beforeAll(async () => {
  sb = await sandbox({ rateWindowMs: 3_600_000 });
  leadId = sb.store.leads.inGroup('acme')[0]!.id;
});
afterAll(() => sb.close());

const spent = () => {
  const s = (b: 'read' | 'write' | 'upstream' | 'thread') => sb.limits.state(ADMIN_KEY_ID, b).remaining;
  return { read: s('read'), write: s('write'), upstream: s('upstream') };
};

/** Expect a ValidationError with this code and param, and no request at all. */
async function refused(p: Promise<unknown>, code: string, param: string | undefined) {
  const before = spent();
  const err = await p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect(err).toMatchObject({ kind: 'validation', code, param });
  expect(spent()).toEqual(before);
}

describe('Bad input gets a clear error that names the parameter, before any request is sent', () => {
  const w = () => client(sb, { discoverLimits: false });

  it('path id kinds: a wrong-kind id is invalid_id naming the path parameter', async () => {
    const { client: c } = w();
    await refused(c.call('get_lead', { path: { workspace: 'acme', lead_id: 'tsk_abc' } }), 'invalid_id', 'lead_id');
    // @ts-expect-error lead_id is missing: the typed call does not compile, and an untyped caller is refused
    await refused(c.call('get_lead', { path: { workspace: 'acme' } }), 'invalid_request', 'lead_id');
    await refused(c.call('list_leads', { path: { workspace: 'Acme/../x' } }), 'invalid_request', 'workspace');
    await c.close();
  });

  it('unknown query parameters are unsupported_filter naming the parameter; sort params are unsupported_sort', async () => {
    const { client: c } = w();
    // Each of these is refused by the compiler too: the query a row takes is its type.
    // @ts-expect-error list_leads takes no colour
    await refused(c.call('list_leads', { path: { workspace: 'acme' }, query: { colour: 'red' } }), 'unsupported_filter', 'colour');
    // @ts-expect-error list_leads takes no sort_by
    await refused(c.call('list_leads', { path: { workspace: 'acme' }, query: { sort_by: 'email' } }), 'unsupported_sort', 'sort_by');
    // @ts-expect-error lukewarm is no lead status
    await refused(c.call('list_leads', { path: { workspace: 'acme' }, query: { status: ['interested', 'lukewarm'] } }), 'unsupported_filter', 'status');
    await refused(c.call('list_tasks', { path: { workspace: 'acme' }, query: { assignee_id: 'usr_ben_acme' } }), 'invalid_id', 'assignee_id');
    await c.close();
  });

  it('limit is 1..200, q is 1..160 characters, expansions at most 3', async () => {
    const { client: c } = w();
    const ws = { workspace: 'acme' };
    await refused(c.call('list_leads', { path: ws, query: { limit: 0 } }), 'invalid_request', 'limit');
    await refused(c.call('list_leads', { path: ws, query: { limit: 201 } }), 'invalid_request', 'limit');
    await refused(c.call('list_leads', { path: ws, query: { q: 'x'.repeat(161) } }), 'invalid_request', 'q');
    await refused(c.call('list_leads', { path: ws, query: { q: '' } }), 'invalid_request', 'q');
    await refused(c.call('list_leads', { path: ws, query: { expand: ['assignees', 'campaign', 'open_tasks', 'tags'] } }), 'invalid_request', 'expand');
    // @ts-expect-error a typed caller passes an array; a comma-separated string (an untyped caller's) is read as one
    const ok = await c.call('list_leads', { path: ws, query: { limit: 200, q: 'x'.repeat(160), expand: 'assignees,campaign,tags' } });
    expect(ok.status).toBe(200);
    await c.close();
  });

  it('priority write takes 1..100 lead ids; unknown body fields are refused', async () => {
    const { client: c } = w();
    const ws = { workspace: 'acme' };
    await refused(c.call('set_priority', { path: ws, body: { lead_ids: [], priority: true } }), 'invalid_request', 'lead_ids');
    const many = Array.from({ length: 101 }, (_, i) => `lead_x${i}`);
    await refused(c.call('set_priority', { path: ws, body: { lead_ids: many, priority: true } }), 'invalid_request', 'lead_ids');
    // @ts-expect-error a task body has no title
    await refused(c.call('create_task', { path: ws, body: { lead_id: leadId, title: 'Call back' } }), 'invalid_request', 'title');
    // @ts-expect-error a note body has no pinned
    await refused(c.call('create_note', { path: ws, body: { lead_id: leadId, body: 'hi', pinned: true } }), 'invalid_request', 'pinned');
    await refused(c.call('create_note', { path: ws, body: { lead_id: 'rep_1', body: 'hi' } }), 'invalid_id', 'lead_id');
    await c.close();
  });

  it('insights windows: at most 366 days for summary and campaigns, 120 days for daily', async () => {
    const { client: c } = w();
    const ws = { workspace: 'acme' };
    await refused(c.call('get_insights_summary', { path: ws, query: { from: '2025-01-01', to: '2026-01-02' } }), 'invalid_request', 'from');
    await refused(
      c.call('get_campaign_insights', { path: ws, query: { from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:01Z' } }),
      'invalid_request',
      'from',
    );
    await refused(c.call('get_daily_insights', { path: ws, query: { from: '2026-01-01', to: '2026-05-01' } }), 'invalid_request', 'from');
    // At the caps exactly, the service accepts them.
    expect((await c.call('get_insights_summary', { path: ws, query: { from: '2025-01-01', to: '2026-01-01' } })).status).toBe(200);
    expect((await c.call('get_daily_insights', { path: ws, query: { from: '2026-01-01', to: '2026-04-30' } })).status).toBe(200);
    await c.close();
  });

  it('date-times on days that do not exist (2026-02-30, 2026-11-31) are invalid_request naming the parameter', async () => {
    const { client: c } = w();
    const ws = { workspace: 'acme' };
    await refused(c.call('list_leads', { path: ws, query: { updated_since: '2026-02-30T00:00:00Z' } }), 'invalid_request', 'updated_since');
    await refused(c.call('get_insights_summary', { path: ws, query: { from: '2026-11-31T00:00:00Z' } }), 'invalid_request', 'from');
    const et = { ...ws, event_type_id: sb.store.eventTypes.inGroup('acme')[0]!.id };
    await refused(c.call('get_slots', { path: et, query: { from: '2026-11-31T09:00:00Z' } }), 'invalid_request', 'from');
    await c.close();
  });

  it('the client checks windows with the same rule as the service: a slots window ending before it starts is refused', async () => {
    const { client: c } = w();
    const et = { workspace: 'acme', event_type_id: sb.store.eventTypes.inGroup('acme')[0]!.id };
    await refused(c.call('get_slots', { path: et, query: { from: '2026-12-10T00:00:00Z', to: '2026-12-01T00:00:00Z' } }), 'invalid_request', 'to');
    await c.close();
  });
});

describe('Errors: {error: {code, message, param?, required_scope?, retry_after?}}; clients branch on code', () => {
  it('an API error carries status, code, message, param and the endpoint; a 4xx is not retried', async () => {
    const { client: c } = client(sb, { discoverLimits: false });
    const err = await c.call('get_lead', { path: { workspace: 'acme', lead_id: 'lead_doesnotexist' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'api', status: 404, code: 'not_found', endpoint: 'get_lead', attempts: 1 });
    expect((err as ApiError).message.length).toBeGreaterThan(0);
    await c.close();
  });

  it('a missing scope is 403 insufficient_scope naming required_scope', async () => {
    const { client: c } = client(sb, { apiKey: sb.keys.readonly, discoverLimits: false });
    const err = await c.call('mark_read', { path: { workspace: 'acme', lead_id: leadId } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'api', status: 403, code: 'insufficient_scope', required_scope: 'leads:write' });
    await c.close();
  });
});
