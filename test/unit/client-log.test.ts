import { Writable } from 'node:stream';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { ClientLog, limiterLogEntry } from '../../src/mcp/client-log.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually, turn } from '../helpers/turns.js';

/** A server with the logging capability, a client collecting its log messages, and what went to the pino stream. */
function rig(clock = new ManualClock(0)) {
  let written = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  const mcp = new McpServer({ name: 't', version: '0' }, { capabilities: { logging: {} } });
  const clientLog = new ClientLog(mcp, createLogger('t', 'info', sink), clock);
  const client = new Client({ name: 'c', version: '0' });
  const received: { level: string; logger?: string; data?: any }[] = [];
  client.setNotificationHandler('notifications/message', (n) => void received.push(n.params as (typeof received)[number]));
  const connect = async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    await client.connect(b);
  };
  /** Until the client has received `n` messages; then one more turn, in which any other would have come too (the transport is in memory). */
  const heard = async (n: number) => {
    await eventually(
      `${n} message(s) received`,
      () => received.length >= n,
      () => received,
    );
    await turn();
  };
  return { mcp, clientLog, client, received, connect, heard, logged: () => written };
}
let open: ReturnType<typeof rig> | null = null;
afterEach(async () => {
  await open?.client.close();
  open = null;
});

describe('Notable events go to stderr and to the MCP client as notifications/message', () => {
  it('a message reaches the client with its level, our logger name and the fields, and the log stream', async () => {
    const r = (open = rig());
    await r.connect();
    r.clientLog.send('warning', 'bucket spent', { event: 'throttled', bucket: 'read' });
    await r.heard(1);
    expect(r.received).toEqual([{ level: 'warning', logger: 'reply-inbox-mcp', data: { message: 'bucket spent', event: 'throttled', bucket: 'read' } }]);
    expect(JSON.parse(r.logged().trim())).toMatchObject({ level: 40, msg: 'bucket spent', event: 'throttled' });
  });

  it('the level the client set with logging/setLevel filters what is sent; stderr still gets everything at its own level', async () => {
    const r = (open = rig());
    await r.connect();
    await r.client.setLoggingLevel('error');
    r.clientLog.send('warning', 'a warning');
    r.clientLog.send('notice', 'a notice');
    r.clientLog.send('error', 'an error');
    await r.heard(1);
    expect(r.received.map((m) => m.data.message)).toEqual(['an error']);
    expect(r.logged()).toMatch(/a warning[\s\S]*a notice[\s\S]*an error/);
  });

  it('messages made before a client is connected wait for it and are sent on flush, once', async () => {
    const r = (open = rig());
    r.clientLog.send('notice', '3 tools hidden', { event: 'tools_hidden' });
    await r.connect();
    await turn();
    expect(r.received).toEqual([]);
    r.clientLog.flush();
    r.clientLog.flush();
    await r.heard(1);
    expect(r.received.map((m) => m.data.event)).toEqual(['tools_hidden']);
  });

  it('the same throttling message is not repeated within its window; another bucket is, and so is the same one after the window', async () => {
    const clock = new ManualClock(0);
    const r = (open = rig(clock));
    await r.connect();
    const limited = (bucket: 'read' | 'upstream') => r.clientLog.limiter({ type: 'rate_limited', bucket, retryAfter: 5, refillAt: clock.now() + 5000 });
    limited('read');
    clock.advance(9_999);
    limited('read');
    limited('upstream');
    await r.heard(2);
    expect(r.received.map((m) => m.data.bucket)).toEqual(['read', 'upstream']);
    clock.advance(1);
    limited('read');
    await r.heard(3);
    expect(r.received.map((m) => m.data.bucket)).toEqual(['read', 'upstream', 'read']);
  });
});

describe('Which limiter events a person hears about: a bucket spent, a 429; not refills or limit changes', () => {
  it('exhausted, rate_limited and too_many_concurrent are warnings naming the bucket', () => {
    const exhausted = limiterLogEntry({ type: 'exhausted', bucket: 'upstream', queued: 2, refillAt: Date.parse('2026-11-20T12:01:00Z') });
    expect(exhausted).toMatchObject({ level: 'warning', fields: { event: 'throttled', bucket: 'upstream', queued: 2 } });
    expect(exhausted!.message).toBe("Rate bucket 'upstream' is spent for this window: 2 call(s) wait for the refill (refill at 2026-11-20T12:01:00.000Z).");
    expect(limiterLogEntry({ type: 'rate_limited', bucket: null, retryAfter: undefined, refillAt: 0 })).toMatchObject({
      level: 'warning',
      fields: { event: 'rate_limited', bucket: null, retry_after: null },
    });
    expect(limiterLogEntry({ type: 'too_many_concurrent', retryAfter: 1 })).toMatchObject({
      level: 'warning',
      fields: { event: 'too_many_concurrent', retry_after: 1 },
    });
  });

  it('a rate header clamped to two windows is a message naming the header and the wait believed', () => {
    const n = limiterLogEntry({ type: 'header_clamped', header: 'retry-after', value: '1000000000 s', boundMs: 120_000 });
    expect(n).toMatchObject({ level: 'notice', fields: { event: 'header_clamped', header: 'retry-after', bound_ms: 120_000 } });
    expect(n!.message).toBe(
      "The API's retry-after header (1000000000 s) points further ahead than two rate windows; the client waits at most 120 seconds for it.",
    );
  });

  it('refill, step_back and limit_changed are not notable', () => {
    expect(limiterLogEntry({ type: 'refill', buckets: ['read'], windowEnd: null })).toBeNull();
    expect(limiterLogEntry({ type: 'step_back', bucket: 'read' })).toBeNull();
    expect(limiterLogEntry({ type: 'limit_changed', bucket: 'read', limit: 100, source: 'me' })).toBeNull();
  });
});

describe('revision 2026-07-28: a message goes only to the requests being answered, at the level each asks for', () => {
  it('while a request is answered its log hears the message; before and after, nothing is sent on its own', async () => {
    const r = (open = rig());
    await r.connect();
    r.clientLog.perRequest();
    const heard: { level: string; data: Record<string, unknown> }[] = [];
    const log = async (level: string, data: Record<string, unknown>) => void heard.push({ level, data });
    r.clientLog.send('error', 'before any request', { event: 'upstream_failure' });
    await r.clientLog.during(log, async () => {
      r.clientLog.send('error', 'get_lead failed upstream', { event: 'upstream_failure' });
    });
    r.clientLog.send('error', 'after it', { event: 'upstream_failure' });
    await turn();
    expect(heard).toEqual([{ level: 'error', data: { message: 'get_lead failed upstream', event: 'upstream_failure' } }]);
    // Nothing reached the client unrequested: the 2025 channel stays quiet.
    expect(r.received).toEqual([]);
    // Every message still reaches the log on stderr.
    expect(r.logged()).toContain('before any request');
    expect(r.logged()).toContain('after it');
  });

  it('two requests under way each hear it; a 2025 session (perRequest never called) is sent it as before', async () => {
    const r = (open = rig());
    await r.connect();
    const a: string[] = [];
    const b: string[] = [];
    await r.clientLog.during(
      async () => void a.push('x'),
      async () => r.clientLog.send('warning', 'legacy notice'),
    );
    await r.heard(1);
    expect(a).toEqual([]);
    expect(r.received.map((m) => m.data?.message)).toEqual(['legacy notice']);
    r.clientLog.perRequest();
    // The first request is answered only once the second has sent the message: both are under way then.
    let sent!: () => void;
    const sentBySecond = new Promise<void>((resolve) => (sent = resolve));
    await Promise.all([
      r.clientLog.during(
        async () => void a.push('x'),
        () => sentBySecond,
      ),
      r.clientLog.during(
        async () => void b.push('x'),
        async () => {
          r.clientLog.send('warning', 'both hear');
          sent();
        },
      ),
    ]);
    expect(a).toEqual(['x']);
    expect(b).toEqual(['x']);
  });
});
