import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';

/**
 * Revision 2026-07-28 over HTTP (SEP-2575): a request that claims the revision is answered by
 * its rules, never with the 2025 path's "no session". A request without its `_meta` envelope
 * is -32602 Invalid params; a method the revision removed (initialize, logging/setLevel, ping)
 * is 404 with -32601 Method not found; every error carries the request's id.
 */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.0.0' },
};

describe('HTTP: requests that claim revision 2026-07-28 get its errors', () => {
  let bin: HttpBinary;
  beforeAll(async () => {
    bin = await startHttpBinary(['--sandbox', '--workspace', 'acme']);
  });
  afterAll(async () => bin?.stop());

  const post = async (method: string, id: number, params: Record<string, unknown>) => {
    const res = await fetch(bin.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SANDBOX_KEYS.admin}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    return { status: res.status, body: (await res.json()) as { id: unknown; error?: { code: number } } };
  };

  it('the MCP-Protocol-Version header without the _meta envelope is -32602 with the request id, not "no session"', async () => {
    const r = await post('tools/list', 101, {});
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ id: 101, error: { code: -32602 } });
    const noVersion = await post('tools/list', 102, { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } });
    expect(noVersion.body).toMatchObject({ id: 102, error: { code: -32602 } });
  });

  it.each(['initialize', 'logging/setLevel', 'ping'])('%s, removed in 2026-07-28, is 404 with -32601 and the request id', async (method) => {
    const r = await post(method, 7, { _meta: ENVELOPE });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('a request with the envelope is still served (tools/list)', async () => {
    const r = await post('tools/list', 8, { _meta: ENVELOPE });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 8, result: { tools: expect.any(Array) } });
  });
});
