import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { GuardedStdioTransport } from '../../src/mcp/transport/stdio.js';

/** A client that does not read: stdout takes 1 KiB, then holds every write until `read()`. */
function stuckClient() {
  const held: (() => void)[] = [];
  const lines: string[] = [];
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      held.push(done);
    },
  });
  /** The client reads everything waiting, and keeps reading from then on. */
  const read = async () => {
    for (let i = 0; i < 1_000_000 && held.length > 0; i++) {
      held.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { out, lines, read };
}

const note = (i: number) =>
  ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `log ${i} ${'x'.repeat(200)}` } }) as unknown as JSONRPCMessage;
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { n: id } }) as unknown as JSONRPCMessage;

describe('stdio while the client is not reading: one drain listener, a bounded queue, input paused', () => {
  it('10,000 messages add one drain listener, not one each; notifications past the bound are dropped, answers kept, in order', async () => {
    const stdin = new PassThrough();
    const c = stuckClient();
    const t = new GuardedStdioTransport(stdin, c.out, 64 * 1024);
    await t.start();
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 10_000; i++) sent.push(t.send(i % 100 === 0 ? answer(i) : note(i)));
    expect(c.out.listenerCount('drain')).toBeLessThanOrEqual(1);
    expect(t.backlog.bytes).toBeLessThanOrEqual(64 * 1024 + 10_000);
    expect(t.dropped).toBeGreaterThan(9_000);
    // No new call is read while the client does not read.
    expect(stdin.isPaused()).toBe(true);
    await c.read();
    await Promise.all(sent);
    expect(stdin.isPaused()).toBe(false);
    const ids = c.lines.map((l) => (JSON.parse(l) as { id?: number }).id).filter((id) => id !== undefined);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, k) => k * 100));
    expect(c.lines.length + t.dropped).toBe(10_000);
    await t.close();
  });

  it('a reading client gets every message, and nothing is dropped', async () => {
    const stdin = new PassThrough();
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = new GuardedStdioTransport(stdin, out, 1024);
    await t.start();
    await Promise.all(Array.from({ length: 500 }, (_, i) => t.send(note(i))));
    expect(lines).toHaveLength(500);
    expect(t.dropped).toBe(0);
    await t.close();
  });
});
