import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { type Gateway, startGateway } from '../helpers/gateway.js';
import { TEST_NOW } from '../helpers/sandbox.js';
import { type McpSession, callErr, startMcp } from './helpers.js';

let sb: Sandbox;
let gw: Gateway;
let s: McpSession;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  gw = await startGateway(sb.baseUrl);
  s = await startMcp(['--workspace', 'acme'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: gw.url });
});
afterAll(async () => {
  await s.close();
  await gw.close();
  await sb.close();
});

describe('A create answered 5xx by a gateway after the API applied it tells the agent to check, never to try again', () => {
  for (const status of [500, 502, 503, 504]) {
    it(`create_task answered ${status}: outcome_unknown, next step names list_tasks, one task stored`, async () => {
      const lead = sb.store.leads.inGroup('acme')[7]!;
      const marker = `e2e-applied-${status}-${Date.now()}`;
      const posts = () => gw.requests.filter((r) => r.startsWith('POST')).length;
      const before = posts();
      gw.fault = (method) => (method === 'POST' ? status : null);
      const r = await callErr(s, 'create_task', { lead_id: lead.id, notes: marker });
      gw.fault = () => null;
      expect(r.error.code).toBe('outcome_unknown');
      expect(r.nextStep).toContain(`list_tasks (workspace=acme lead_id=${lead.id})`);
      expect(`${r.error.message} ${r.nextStep}`).not.toMatch(/try again/i);
      expect(posts() - before).toBe(1);
      expect([...sb.store.tasks.all()].filter((t) => t.notes === marker)).toHaveLength(1);
    });
  }
});
