import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { sandboxBehindGateway } from '../helpers/behind-gateway.js';
import { streamBody } from '../../scripts/harness/gateway.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type McpSession, callErr, callOk, startMcp } from './helpers.js';

/** The binary talks to the sandbox through a gateway that can lose an answer or serve a huge one. */
const MB = 1024 * 1024;
const env = sandboxBehindGateway(() => startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' }));
let s: McpSession;
beforeAll(async () => {
  s = await startMcp(['--workspace', 'acme'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: env.gw.url });
});
afterAll(() => s?.close());

describe('A create answered 5xx by a gateway after the API applied it tells the agent to check, never to try again', () => {
  for (const status of [500, 502, 503, 504]) {
    it(`create_task answered ${status}: outcome_unknown, next step names list_tasks, one task stored`, async () => {
      const lead = env.sb.store.leads.inGroup('acme')[7]!;
      const marker = `e2e-applied-${status}-${Date.now()}`;
      const posts = () => env.gw.requests.filter((r) => r.startsWith('POST')).length;
      const before = posts();
      env.gw.fault = (method) => (method === 'POST' ? status : null);
      const r = await callErr(s, 'create_task', { lead_id: lead.id, notes: marker });
      env.gw.fault = () => null;
      expect(r.error.code).toBe('outcome_unknown');
      expect(r.nextStep).toContain(`list_tasks (workspace=acme lead_id=${lead.id})`);
      expect(`${r.error.message} ${r.nextStep}`).not.toMatch(/try again/i);
      expect(posts() - before).toBe(1);
      expect([...env.sb.store.tasks.all()].filter((t) => t.notes === marker)).toHaveLength(1);
    });
  }
});

describe('Limits: a 200 MB attachment is refused with a clear error, and the server keeps serving', () => {
  it('download_attachment of a 200 MB file streamed without a length: response_too_large, the file is not read to the end', async () => {
    let sent: Promise<number> | null = null;
    env.gw.answer = (req, res) => {
      if (!(req.url ?? '').includes('/download')) return false;
      req.resume();
      sent = streamBody(res, 200 * MB, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="huge.bin"' });
      return true;
    };
    const r = await callErr(s, 'download_attachment', { lead_id: 'lead_big0001', attachment_id: 'att_big00001' });
    env.gw.answer = () => false;
    expect(r.error.code).toBe('response_too_large');
    expect(r.error.message).toContain('25 MB');
    expect(r.nextStep).toMatch(/too large/);
    expect(await sent!).toBeLessThan(41 * MB);
    const me = await callOk(s, 'get_me');
    expect(me.structured).toBeTypeOf('object');
  });
});
