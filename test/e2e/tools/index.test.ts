import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../../../src/api/endpoints.js';
import { type RelayedMcp, startRelayedMcp } from '../helpers.js';

/**
 * The whole list (tools/index.ts). Each area's tools are called in test/e2e/tools/<area>.test.ts,
 * valid and invalid arguments for every tool of it; this file holds that every area has one.
 */
let mcp: RelayedMcp;
beforeAll(async () => {
  mcp = await startRelayedMcp(['--workspace', 'acme', '--log-level', 'warn']);
});
afterAll(async () => {
  await mcp?.close();
});

describe('tools/list: the admin key is served every tool of the endpoint table', () => {
  it('one distinct tool per tool endpoint, each with an input and an output schema', async () => {
    const { tools } = await mcp.s.client.listTools();
    expect(tools).toHaveLength(TOOL_ENDPOINTS.length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(TOOL_ENDPOINTS.length);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
  });
});

describe('Every area of tools has its test file here, which calls each of its tools validly and invalidly', () => {
  it('a <area>.test.ts for each toolset of the table, and none for an area that does not exist', () => {
    const areas = [...new Set(TOOL_ENDPOINTS.map((e) => e.toolset))].sort();
    // While the areas move beside their tools (tools/<area>.test.ts), each is in one place or the other.
    const files = [import.meta.dirname, join(import.meta.dirname, '../../../tools')]
      .flatMap((dir) => readdirSync(dir))
      .filter((f) => f.endsWith('.test.ts') && f !== 'index.test.ts')
      .map((f) => f.replace(/\.test\.ts$/, ''))
      .sort();
    expect(files).toEqual(areas);
  });
});
