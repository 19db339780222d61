import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { GuardedStdioTransport, MAX_QUEUED_BYTES } from '../../src/mcp/transport/stdio.js';
import { eventually } from '../helpers/turns.js';

/** A transport whose line bound is 1 KiB, what it wrote, and what it handed on as messages. */
async function rig() {
  const stdin = new PassThrough();
  const written: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) written.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const t = new GuardedStdioTransport(stdin, out, MAX_QUEUED_BYTES, 1024);
  const taken: JSONRPCMessage[] = [];
  t.onmessage = (m) => void taken.push(m);
  await t.start();
  return { stdin, t, written, taken };
}

const long = (head: string) => `${head}"params":{"name":"create_note","arguments":{"body":"${'x'.repeat(5000)}"}}}\n`;

describe('a stdio line over the bound is answered under its own id, and its tail is never parsed as a message', () => {
  it('one -32600 with the request id 7; the next request is read as usual; no -32700 for the tail', async () => {
    const r = await rig();
    const line = long('{"jsonrpc":"2.0","id":7,"method":"tools/call",');
    // Sent in pieces, as a pipe delivers a long line.
    for (let i = 0; i < line.length; i += 700) r.stdin.write(line.slice(i, i + 700));
    r.stdin.write('{"jsonrpc":"2.0","id":8,"method":"tools/list"}\n');
    // Lines are read in order: once the next request is taken, the long line and its tail were read.
    await eventually(
      'the next request taken',
      () => r.taken.length > 0,
      () => r.written,
    );
    expect(r.written).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('over 1024 bytes') } }]);
    expect(r.taken).toEqual([{ jsonrpc: '2.0', id: 8, method: 'tools/list' }]);
    await r.t.close();
  });

  it('a string id is kept as a string; a line whose head names no id is answered with id null, once', async () => {
    const r = await rig();
    for (const line of [long('{"id":"call-1","jsonrpc":"2.0","method":"tools/call",'), long('{"jsonrpc":"2.0","method":"tools/call","id":9,')])
      for (let i = 0; i < line.length; i += 700) r.stdin.write(line.slice(i, i + 700));
    // A request after them, read only once both long lines and their tails were.
    r.stdin.write('{"jsonrpc":"2.0","id":10,"method":"ping"}\n');
    await eventually(
      'the ping after them taken',
      () => r.taken.length > 0,
      () => r.written,
    );
    expect(r.written.map((w) => w.id)).toEqual(['call-1', null]);
    expect(r.written.every((w) => (w.error as { code: number }).code === -32600)).toBe(true);
    expect(r.taken).toEqual([{ jsonrpc: '2.0', id: 10, method: 'ping' }]);
    await r.t.close();
  });
});
