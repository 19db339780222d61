import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedTool } from '../../src/mcp/declare/publish.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { sandbox } from '../client/helpers.js';
import { type McpSession, startMcp } from './helpers.js';

// The bundled binary lists the tools its build computed (scripts/build-bin.ts); the sources
// compute them at their first listing. Both must publish exactly the same tools.
let sb: Sandbox;
let s: McpSession;
beforeAll(async () => {
  sb = await sandbox();
  s = await startMcp(['--base-url', sb.baseUrl], { REPLY_INBOX_API_KEY: sb.keys.admin });
});
afterAll(async () => {
  await s.close();
  await sb.close();
});

describe('tools/list of the bundled binary', () => {
  it('publishes every tool exactly as the sources do: name, title, description, both schemas and annotations', async () => {
    const listed = (await s.client.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
    const byName = new Map(ALL_TOOLS.map((t) => [t.name, publishedTool(t)]));
    for (const t of listed) expect(t, t.name).toEqual(byName.get(t.name));
  });
});
