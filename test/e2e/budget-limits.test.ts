import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type McpSession, startMcp, textOf } from './helpers.js';

/**
 * Results over the budget, end to end: a newest lead whose name is 30,000 characters, and a
 * playbook of 300 KB. The budget is the default 24,576 bytes in each form.
 */
const BUDGET = 24_576;
const bytes = (t: string) => Buffer.byteLength(t, 'utf8');
let sandbox: Sandbox;
let s: McpSession;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  sandbox.store.sortedLeads('acme').at(-1)!.first_name = `N${' \u00A0'.repeat(15_000)}`;
  sandbox.store.workspaces.get('acme')!.sdr_notes = Array.from({ length: 7_000 }, (_, i) => `<p>Rule ${i}: answer within the hour.</p>`).join('');
  s = await startMcp(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sandbox.baseUrl });
});
afterAll(async () => {
  await s?.close();
  await sandbox?.close();
});

describe('Results over the budget: one lead with a 30,000-character name blocks nothing', () => {
  it('list_leads {} answers its whole page, the long name shortened, both forms within the budget', async () => {
    const r = (await s.client.callTool({ name: 'list_leads', arguments: {} })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as { data: unknown[]; next_cursor: string | null; shortened?: { items: number }; left_out?: unknown };
    expect(sc.data.length).toBeGreaterThanOrEqual(20);
    expect(sc.left_out).toBeUndefined();
    expect(sc.shortened).toEqual({ items: 1 });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(BUDGET);
    expect(bytes(JSON.stringify(sc))).toBeLessThanOrEqual(BUDGET);
    expect(textOf(r)).not.toContain('cursor "null"');
  });

  it('the leads resource reads, within the budget', async () => {
    const r = (await s.client.readResource({ uri: 'inbox://acme/leads' })) as ReadResourceResult;
    const text = (r.contents[0] as { text: string }).text;
    expect(bytes(text)).toBeLessThanOrEqual(BUDGET);
    expect(text).toContain('…');
  });
});

describe('Results over the budget: the playbook resource', () => {
  it('a 300 KB playbook is cut within the budget, and the last line says how much was shown', async () => {
    const r = (await s.client.readResource({ uri: 'inbox://acme/playbook' })) as ReadResourceResult;
    const text = (r.contents[0] as { text: string }).text;
    expect(bytes(text)).toBeLessThanOrEqual(BUDGET);
    expect(text).toMatch(/\[The playbook is \d+ bytes: the first \d+ are shown, within this server's result budget of 24576 bytes/);
  });
});
