import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../src/api/endpoints.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../src/sandbox/index.js';
import { TEST_NOW } from '../scripts/harness/sandbox.js';
import { type InProcessSession, inProcessCli } from '../test/helpers/in-process.js';

/**
 * The whole list (tools/index.ts). Each area's tools are called in tools/<area>.test.ts, beside
 * tools/<area>.ts, valid and invalid arguments for every tool of it; this file holds that every
 * area has both files.
 */
let sandbox: Sandbox;
let admin: InProcessSession;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  admin = await inProcessCli(['--workspace', 'acme', '--log-level', 'silent'], {
    REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
    REPLY_INBOX_BASE_URL: sandbox.baseUrl,
  });
});
afterAll(async () => {
  await admin?.close();
  await sandbox?.close();
});

describe('tools/list: the admin key is served every tool of the endpoint table', () => {
  it('one distinct tool per tool endpoint, each with an input and an output schema', async () => {
    const { tools } = await admin.client.listTools();
    expect(tools).toHaveLength(TOOL_ENDPOINTS.length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(TOOL_ENDPOINTS.length);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
  });
});

describe('Every area of the table has its tools file and, beside it, its test file, which calls each of its tools validly and invalidly', () => {
  const areas = [...new Set(TOOL_ENDPOINTS.map((e) => e.toolset))].sort();
  const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && !f.startsWith('index.'));
  const named = (suffix: string) =>
    files
      .filter((f) => f.endsWith(suffix) && (suffix === '.test.ts' || !f.endsWith('.test.ts')))
      .map((f) => f.slice(0, -suffix.length))
      .sort();
  it('a tools/<area>.ts for each toolset of the table, and none for an area that does not exist', () => {
    expect(named('.ts')).toEqual(areas);
  });
  it('a tools/<area>.test.ts for each toolset of the table, and none for an area that does not exist', () => {
    expect(named('.test.ts')).toEqual(areas);
  });
});
