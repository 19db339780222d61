import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/client/index.js';
import { sandboxBehindGateway } from '../helpers/behind-gateway.js';
import type { GatewayFault } from '../../scripts/harness/gateway.js';
import { errorBody } from '../../src/mcp/errors.js';
import { endpoint as row } from '../../src/api/endpoints.js';
import { client, sandbox } from './helpers.js';

const env = sandboxBehindGateway(() => sandbox());

const ws = { workspace: 'acme' };
const FAULTS: Exclude<GatewayFault, null>[] = [500, 502, 503, 504, 'cut'];

describe('A write that is not idempotent, answered 5xx or cut after the API applied it, is outcome_unknown and never sent again', () => {
  for (const fault of FAULTS) {
    for (const [endpoint, read, field] of [
      ['create_task', 'list_tasks', 'notes'],
      ['create_note', 'list_notes', 'body'],
    ] as const) {
      it(`${endpoint} answered ${fault} by a gateway: one record, outcome_unknown naming ${read}`, async () => {
        const { client: c } = client(env.sb, { baseUrl: env.gw.url, retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 5 } });
        await c.me();
        const lead = env.sb.store.leads.inGroup('acme')[5]!;
        const marker = `applied-${endpoint}-${fault}`;
        const sentBefore = env.gw.requests.length;
        env.gw.fault = (method) => (method === 'POST' ? fault : null);
        const err = await c.call(endpoint, { path: ws, body: { lead_id: lead.id, [field]: marker } }).then(
          () => null,
          (e: unknown) => e,
        );
        env.gw.fault = () => null;
        await c.close();
        expect(err).toBeInstanceOf(OutcomeUnknownError);
        expect(err).toMatchObject({ code: 'outcome_unknown', endpoint, safe_to_repeat: false });
        expect((err as OutcomeUnknownError).check).toContain(`${read} (workspace=acme lead_id=${lead.id})`);
        expect((err as Error).message).toMatch(/not resent/);
        // Sent once: the gateway saw one POST, and the API holds one record.
        expect(env.gw.requests.slice(sentBefore).filter((r) => r.startsWith('POST'))).toHaveLength(1);
        const stored =
          endpoint === 'create_task'
            ? [...env.sb.store.tasks.all()].filter((t) => t.notes === marker)
            : [...env.sb.store.notes.all()].filter((n) => n.body === marker);
        expect(stored).toHaveLength(1);
      });
    }
  }

  it('a read answered 502 by the gateway is still retried (it changes nothing)', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 5 } });
    await c.me();
    let failed = 0;
    env.gw.fault = (method) => (method === 'GET' && failed++ === 0 ? 502 : null);
    const r = await c.call('list_members', { path: ws });
    env.gw.fault = () => null;
    await c.close();
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(2);
  });
});

describe('A write answered 201 with an HTML body, or 408, may have been applied: outcome_unknown naming the check, never "Try again later"', () => {
  for (const fault of [201, 408] as const) {
    for (const [endpoint, read, field] of [
      ['create_task', 'list_tasks', 'notes'],
      ['mark_read', 'get_lead', null],
    ] as const) {
      it(`${endpoint} answered ${fault}${fault === 201 ? ' with HTML' : ''} by a gateway`, async () => {
        const { client: c } = client(env.sb, { baseUrl: env.gw.url, retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 5 } });
        await c.me();
        const lead = env.sb.store.leads.inGroup('acme')[6]!;
        const sentBefore = env.gw.requests.length;
        env.gw.fault = (method) => (method === 'POST' ? fault : null);
        const req = field ? { path: ws, body: { lead_id: lead.id, [field]: `answered-${fault}` } } : { path: { ...ws, lead_id: lead.id } };
        const err = await c.request(row(endpoint), req).then(
          () => null,
          (e: unknown) => e,
        );
        env.gw.fault = () => null;
        await c.close();
        expect(err).toBeInstanceOf(OutcomeUnknownError);
        expect((err as Error).message).toMatch(/may have been applied/);
        if (fault === 201) expect((err as Error).message).toContain('came back unreadable (not JSON)');
        const body = errorBody(err, endpoint);
        expect(body.error.code).toBe('outcome_unknown');
        expect(body.next_step).not.toMatch(/try again later/i);
        if (endpoint === 'create_task') expect(body.next_step).toContain(`Check with ${read} (workspace=acme lead_id=${lead.id})`);
        expect(env.gw.requests.slice(sentBefore).filter((r) => r.startsWith('POST'))).toHaveLength(1);
      });
    }
  }
});

describe('A download answered with a redirect is refused, never followed: the key goes to no other host', () => {
  it('302 to another host: download_attachment fails naming the host, and nothing reaches that host', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
    await c.me();
    let followed = 0;
    const elsewhere = (await import('node:http')).createServer((_req, res) => {
      followed++;
      res.end('not the file');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const port = (elsewhere.address() as { port: number }).port;
    env.gw.answer = (req, res) => {
      if (!req.url?.includes('/attachments/')) return false;
      res.writeHead(302, { location: `http://127.0.0.1:${port}/files/att_1?sig=secret-signature` });
      res.end();
      return true;
    };
    const err = await c.call('download_attachment', { path: { ...ws, lead_id: 'lead_abc', attachment_id: 'att_abc' } }).then(
      () => null,
      (e: unknown) => e,
    );
    env.gw.answer = () => false;
    await c.close();
    await new Promise((r) => elsewhere.close(r));
    expect(err).toMatchObject({ code: 'invalid_response', status: 302 });
    expect((err as Error).message).toContain(`a redirect (HTTP 302, to 127.0.0.1:${port})`);
    expect((err as Error).message).not.toContain('secret-signature');
    expect(followed).toBe(0);
  });
});
