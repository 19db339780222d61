import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { type Era, rawSession, startMcp } from './helpers.js';

/**
 * Issue 30 item 11: errors reached clients as "MCP error -32602: MCP error -32602: Unknown
 * tool: …". A client prints "MCP error CODE: " before the message it gets (the v1 SDK's McpError
 * does); the server's own message must not carry it too. Each protocol error the binary
 * answers, in both eras, carries its message once, with no prefix of its own.
 */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.0.0' },
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } },
};
const PREFIX = /MCP error/i;

/** Requests each answered with a JSON-RPC error: an unknown tool, resource, lead, prompt and method, and malformed arguments. */
const FAILING: [string, Record<string, unknown>][] = [
  ['tools/call', { name: 'search_inbox', arguments: {} }],
  ['tools/call', { name: 'list_leads', arguments: 'not an object' }],
  ['resources/read', { uri: 'inbox://nope' }],
  ['resources/read', { uri: 'inbox://acme/leads/lead_zzzzzzzzzzzzzz' }],
  ['prompts/get', { name: 'no_such_prompt' }],
  ['no/such/method', {}],
];

function errorsOf(stdout: string): { id: number; error: { code: number; message: string } }[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((m) => m.error);
}

describe.each<Era>(['legacy', 'modern'])('over stdio, the %s era: the message on the wire carries no "MCP error" prefix', (era) => {
  let errors: ReturnType<typeof errorsOf>;
  beforeAll(async () => {
    const opening = era === 'legacy' ? [INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }] : [];
    const meta = era === 'modern' ? { _meta: ENVELOPE } : {};
    const requests = FAILING.map(([method, params], i) => ({ jsonrpc: '2.0', id: i + 1, method, params: { ...params, ...meta } }));
    errors = errorsOf((await rawSession(['--sandbox', '--workspace', 'acme', '--log-level', 'warn'], [...opening, ...requests])).stdout);
  });

  it('every failing request is answered with an error', () => {
    expect(errors.map((e) => e.id)).toEqual(FAILING.map((_, i) => i + 1));
  });

  it.each(FAILING.map(([method, params], i) => [i + 1, `${method} ${JSON.stringify(params)}`] as const))('request %i (%s)', (id) => {
    const e = errors.find((x) => x.id === id)!;
    expect(e.error.message).not.toMatch(PREFIX);
    // What a client that adds its prefix shows: the code and the message once.
    expect(`MCP error ${e.error.code}: ${e.error.message}`.match(/MCP error/g)).toHaveLength(1);
  });
});

describe('the SDK client in both eras, over stdio and HTTP: an unknown tool reads "Unknown tool: …" once', () => {
  let bin: HttpBinary;
  const clients: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    bin = await startHttpBinary(['--sandbox', '--workspace', 'acme']);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await bin?.stop();
  });

  const unknownTool = async (client: Client) => {
    const err = await client.callTool({ name: 'search_inbox', arguments: {} }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.message).not.toMatch(PREFIX);
    expect(err!.message.match(/Unknown tool/g)).toHaveLength(1);
    expect(err!.message).toMatch(/^Unknown tool: search_inbox\./);
  };

  it.each<Era>(['legacy', 'modern'])('stdio, %s', async (era) => {
    const s = await startMcp(['--sandbox', '--workspace', 'acme', '--log-level', 'warn'], {}, {}, era);
    clients.push(s);
    await unknownTool(s.client);
  });

  it.each<Era>(['legacy', 'modern'])('HTTP, %s', async (era) => {
    const c = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`, era);
    clients.push(c);
    await unknownTool(c);
  });
});
