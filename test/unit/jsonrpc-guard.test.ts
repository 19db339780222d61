import { describe, expect, it } from 'vitest';
import { vetLine, vetMessage } from '../../src/mcp/transport/jsonrpc-guard.js';

const replyOf = (v: ReturnType<typeof vetLine>) => ('reply' in v ? (v.reply as any) : null);

describe('JSON-RPC 2.0: a message that cannot be handled gets the error the spec names', () => {
  it('a line that is not JSON is -32700 with id null', () => {
    expect(replyOf(vetLine('{not json'))).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });
  it.each([['[]'], ['42'], ['"a string"'], ['null']])('%s is -32600 with id null (no batches)', (line) => {
    expect(replyOf(vetLine(line))).toMatchObject({ id: null, error: { code: -32600 } });
  });
  it('a request without method, or of another JSON-RPC version, is -32600 with its id', () => {
    expect(replyOf(vetMessage({ jsonrpc: '2.0', id: 7 }))).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(replyOf(vetMessage({ jsonrpc: '1.0', id: 'a', method: 'ping' }))).toMatchObject({ id: 'a', error: { code: -32600 } });
  });
  it('params that are not an object, or that the method refuses, are -32602', () => {
    expect(replyOf(vetMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }))).toMatchObject({ id: 1, error: { code: -32602 } });
    const bad = replyOf(vetMessage({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 42 } }));
    expect(bad).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(bad.error.message).toMatch(/tools\/call: params\.name/);
    expect(replyOf(vetMessage({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } }))).toMatchObject({ error: { code: -32602 } });
  });
  it('a message nested past 100 levels is refused without a throw: -32600 for a request, nothing for a response', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(replyOf(vetLine(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"a":${nested(10_000)}}}}`))).toMatchObject({
      id: 4,
      error: { code: -32600 },
    });
    expect(vetLine(`{"jsonrpc":"2.0","id":5,"result":{"a":${nested(10_000)}}}`)).toEqual({ reply: null });
    expect(replyOf(vetLine(nested(10_000)))).toMatchObject({ id: null, error: { code: -32600 } });
    // Brackets inside strings are text, not nesting.
    expect('message' in vetLine(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"s":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}}`)).toBe(true);
    expect('message' in vetLine(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":${nested(90)}}}`)).toBe(true);
  });
  it('initialize, ping and logging/setLevel with a 2026-07-28 envelope are not checked as 2025 requests (the revision removed them: the SDK answers -32601)', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    for (const method of ['initialize', 'logging/setLevel', 'ping']) {
      expect('message' in vetMessage({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta } })).toBe(true);
    }
    // Without the envelope they are 2025 requests, checked as before.
    expect(replyOf(vetMessage({ jsonrpc: '2.0', id: 2, method: 'initialize', params: {} }))).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(replyOf(vetMessage({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } }))).toMatchObject({
      id: 3,
      error: { code: -32602 },
    });
  });
  it('a malformed notification is dropped, never answered', () => {
    expect(vetMessage({ jsonrpc: '1.0', method: 'notifications/initialized' })).toEqual({ reply: null });
    expect(vetMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' })).toEqual({ reply: null });
  });
  it('good requests, notifications and responses pass through', () => {
    for (const m of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_me', arguments: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 5, result: {} },
      { jsonrpc: '2.0', id: 'x', method: 'some/extension', params: { a: 1 } },
    ]) {
      expect('message' in vetMessage(m)).toBe(true);
    }
  });
});
