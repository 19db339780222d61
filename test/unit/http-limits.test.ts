import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { describe, expect, it } from 'vitest';
import { AuthFailures, groupOf } from '../../src/mcp/transport/http/auth-failures.js';
import { KeyClients } from '../../src/mcp/transport/http/clients.js';
import { type Session, Sessions } from '../../src/mcp/transport/http/sessions.js';

/** A client that records whether it was closed. */
const closable = (name: string, closed: string[]) => ({ name, close: async () => void closed.push(name) });

describe('KeyClients: what the HTTP server holds per key is bounded', () => {
  it('a refused key is dropped at once, not after the linger', () => {
    const closed: string[] = [];
    const clients = new KeyClients((key) => closable(key, closed));
    clients.acquire('a', 'key-a').release();
    expect(clients.size).toBe(1);
    clients.drop('a');
    expect(clients.size).toBe(0);
    expect(closed).toEqual(['key-a']);
  });

  it('at the cap the longest-unused lingering key makes room; a key in use is never closed', () => {
    const closed: string[] = [];
    const clients = new KeyClients((key) => closable(key, closed), 60_000, 2);
    const a = clients.acquire('a', 'key-a');
    clients.acquire('b', 'key-b').release();
    clients.acquire('c', 'key-c').release();
    expect(closed).toEqual(['key-b']);
    expect([clients.has('a'), clients.has('b'), clients.has('c')]).toEqual([true, false, true]);
    a.release();
    clients.acquire('c', 'key-c').release();
    clients.acquire('d', 'key-d').release();
    expect(closed).toEqual(['key-b', 'key-a']);
  });

  it('a key in use is not dropped', () => {
    const closed: string[] = [];
    const clients = new KeyClients((key) => closable(key, closed));
    clients.acquire('a', 'key-a');
    clients.drop('a');
    expect(clients.has('a')).toBe(true);
    expect(closed).toEqual([]);
  });
});

describe('AuthFailures: failed authentications per client address', () => {
  it('past the limit in a minute an address waits until the minute ends; other addresses are not affected', () => {
    let t = 1_000_000;
    const f = new AuthFailures(3, 60_000, 10_000, () => t);
    for (let i = 0; i < 3; i++) {
      expect(f.retryAfter('10.0.0.1')).toBe(0);
      f.failed('10.0.0.1');
    }
    t += 15_000;
    expect(f.retryAfter('10.0.0.1')).toBe(45);
    expect(f.retryAfter('10.0.0.2')).toBe(0);
    t += 45_000;
    expect(f.retryAfter('10.0.0.1')).toBe(0);
  });

  it('0 turns the limit off, and the addresses remembered are capped', () => {
    const off = new AuthFailures(0);
    for (let i = 0; i < 100; i++) off.failed('x');
    expect(off.retryAfter('x')).toBe(0);
    expect(off.size).toBe(0);
    const f = new AuthFailures(1, 60_000, 100);
    for (let i = 0; i < 1_000; i++) f.failed(`a${i}`);
    expect(f.size).toBe(100);
  });

  it('attempts still being judged count: of 200 begun at once, only the limit gets through (issue 22 item 4)', () => {
    const f = new AuthFailures(20);
    const begun = Array.from({ length: 200 }, () => f.begin('10.0.0.9')).filter(Boolean).length;
    expect(begun).toBe(20);
    // A success is forgotten; failures stay counted.
    for (let i = 0; i < 5; i++) f.end('10.0.0.9', true);
    expect(f.begin('10.0.0.9')).toBe(true);
    for (let i = 0; i < 16; i++) f.end('10.0.0.9', false);
    expect(f.begin('10.0.0.9')).toBe(true);
    f.end('10.0.0.9', false);
    for (let i = 0; i < 3; i++) f.failed('10.0.0.9');
    expect(f.begin('10.0.0.9')).toBe(false);
  });

  it('rotating addresses inside one IPv6 /64 share one limit; other /64s and IPv4 are apart', () => {
    const f = new AuthFailures(3);
    for (let i = 1; i <= 3; i++) f.failed(`2001:db8:1:2::${i.toString(16)}`);
    expect(f.retryAfter('2001:db8:1:2:ffff:eeee:dddd:cccc')).toBeGreaterThan(0);
    expect(f.retryAfter('2001:0db8:0001:0002::abcd')).toBeGreaterThan(0);
    expect(f.retryAfter('2001:db8:1:3::1')).toBe(0);
    expect(groupOf('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(groupOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(f.size).toBe(1);
  });
});

describe('Sessions: one key cannot take every session, and nobody can hoard them', () => {
  const session = (
    id: string,
    owner: string,
    lastSeen: number,
    busy: number,
    closed: string[],
    o: { streams?: number; subs?: number; returned?: boolean } = {},
  ): Session => ({
    id,
    owner,
    lastSeen,
    busy,
    streams: o.streams ?? 0,
    returned: o.returned ?? true,
    server: { subscriptionCount: o.subs ?? 0 },
    transport: { close: async () => void closed.push(id) } as unknown as NodeStreamableHTTPServerTransport,
  });
  const fill = (s: Sessions, list: Session[]) => {
    for (const x of list) {
      expect(s.reserve(x.owner)).toBeNull();
      s.add(x);
    }
  };

  it("a key at its cap gives up its own longest-idle session, never a busy one or another key's", async () => {
    const closed: string[] = [];
    const s = new Sessions(100, 60_000);
    fill(s, [
      session('k1-old', 'k', 1, 0, closed),
      session('k1-busy', 'k', 0, 1, closed),
      session('k1-new', 'k', 5, 0, closed),
      session('other', 'o', 0, 0, closed),
    ]);
    expect(s.reserve('k', 3)).toBeNull();
    expect(closed).toEqual(['k1-old']);
    expect(s.get('k1-old')).toBeUndefined();
    expect(s.reserve('o', 3)).toBeNull();
    expect(closed).toEqual(['k1-old']);
    await s.closeAll();
  });

  it('when every session of the key is busy, there is no room', async () => {
    const closed: string[] = [];
    const s = new Sessions(100, 60_000);
    fill(s, [session('a', 'k', 1, 1, closed), session('b', 'k', 2, 2, closed)]);
    expect(s.reserve('k', 2)).toBe('key');
    expect(closed).toEqual([]);
    await s.closeAll();
  });

  it('a burst of 150 initializes of one key gets at most its cap of places while they open (issue 22 item 2)', async () => {
    const s = new Sessions(100, 60_000);
    const answers = Array.from({ length: 150 }, () => s.reserve('k', 10));
    expect(answers.filter((a) => a === null)).toHaveLength(10);
    expect(answers.filter((a) => a === 'key')).toHaveLength(140);
    // Another key still gets in.
    expect(s.reserve('other', 10)).toBeNull();
    await s.closeAll();
  });

  it('a key at its cap does not close sessions whose client has not come back since initialize (issue 22 item 2)', async () => {
    const closed: string[] = [];
    let t = 100_000;
    const s = new Sessions(100, 10 * 60_000, () => t, 2 * 60_000, 10_000);
    // Three sessions answered 200 just now, their clients not back yet (a burst's own).
    fill(s, [
      session('a', 'k', t - 3_000, 0, closed, { returned: false }),
      session('b', 'k', t - 1_000, 0, closed, { returned: false }),
      session('c', 'k', t, 0, closed, { returned: false }),
    ]);
    expect(s.reserve('k', 3)).toBe('key');
    expect(closed).toEqual([]);
    // Room comes when the oldest leaves its handshake grace: 7 s from now.
    expect(s.retryAfter('key', 'k')).toBe(7);
    // A client that came back makes its session an ordinary idle one, given up first.
    s.get('b')!.returned = true;
    expect(s.reserve('k', 3)).toBeNull();
    expect(closed).toEqual(['b']);
    s.add(session('d', 'k', t, 0, closed, { returned: false }));
    // One never came back: past the grace it is given up like any idle session.
    t += 7_000;
    expect(s.reserve('k', 3)).toBeNull();
    expect(closed).toEqual(['b', 'a']);
    // The rest are in their handshake (3 s left) or being opened; once busy, the default wait.
    expect(s.reserve('k', 3)).toBe('key');
    expect(s.retryAfter('key', 'k')).toBe(3);
    s.get('c')!.busy = 1;
    s.get('d')!.busy = 1;
    expect(s.retryAfter('key', 'k')).toBe(5);
    await s.closeAll();
  });

  it('a full table closes the least recently used idle session (any caller, token mode too) before refusing a new client', async () => {
    const closed: string[] = [];
    const s = new Sessions(3, 60_000);
    fill(s, [session('old', 'token', 1, 0, closed), session('busy', 'token', 0, 1, closed), session('new', 'token', 9, 0, closed)]);
    expect(s.reserve('token')).toBeNull();
    expect(closed).toEqual(['old']);
    // A reserved place counts: a second newcomer closes the next idle one.
    expect(s.reserve('token')).toBeNull();
    expect(closed).toEqual(['old', 'new']);
    // Only busy sessions and places being opened are left: now the server refuses.
    expect(s.reserve('token')).toBe('server');
    await s.closeAll();
  });

  it('a full table does not close a session of any key whose client has not come back since initialize; past the grace it does', async () => {
    const closed: string[] = [];
    let t = 100_000;
    const s = new Sessions(3, 10 * 60_000, () => t, 2 * 60_000, 10_000);
    // Three sessions answered 200 just now to three callers, their clients not back yet.
    fill(s, [
      session('a', 'ka', t - 4_000, 0, closed, { returned: false }),
      session('b', 'kb', t - 2_000, 0, closed, { returned: false }),
      session('c', 'kc', t, 0, closed, { returned: false }),
    ]);
    expect(s.reserve('kd')).toBe('server');
    expect(closed).toEqual([]);
    // Room comes when the oldest leaves its handshake grace: 6 s from now.
    expect(s.retryAfter('server', 'kd')).toBe(6);
    // A client that came back makes its session an ordinary idle one, closed first though more recent.
    s.get('c')!.returned = true;
    expect(s.reserve('kd')).toBeNull();
    expect(closed).toEqual(['c']);
    s.add(session('d', 'kd', t, 0, closed, { returned: false }));
    // Clients that never come back (and never DELETE) hold their place only for the grace.
    t += 6_000;
    expect(s.reserve('ke')).toBeNull();
    expect(closed).toEqual(['c', 'a']);
    s.add(session('e', 'ke', t, 0, closed, { returned: false }));
    // b leaves its grace in 2 s; once every session is busy, the default wait.
    expect(s.reserve('kf')).toBe('server');
    expect(s.retryAfter('server', 'kf')).toBe(2);
    for (const id of ['b', 'd', 'e']) s.get(id)!.busy = 1;
    expect(s.retryAfter('server', 'kf')).toBe(5);
    await s.closeAll();
  });

  it('a session listening on an open stream with subscriptions is evicted last, even when least recently used', async () => {
    const closed: string[] = [];
    const s = new Sessions(2, 60_000);
    fill(s, [session('listening', 'a', 1, 0, closed, { streams: 1, subs: 3 }), session('quiet', 'b', 5, 0, closed)]);
    expect(s.reserve('c')).toBeNull();
    expect(closed).toEqual(['quiet']);
    await s.closeAll();
  });

  it('the idle timeout closes a quiet session; an open stream keeps it; subscriptions with no stream go within minutes', async () => {
    const closed: string[] = [];
    let t = 0;
    const s = new Sessions(100, 10 * 60_000, () => t, 2 * 60_000);
    fill(s, [
      session('quiet', 'a', 0, 0, closed),
      session('streaming', 'a', 0, 0, closed, { streams: 1 }),
      session('vanished-subscriber', 'a', 0, 0, closed, { subs: 5 }),
    ]);
    t = 2 * 60_000;
    s.sweep();
    expect(closed).toEqual(['vanished-subscriber']);
    t = 10 * 60_000;
    s.sweep();
    expect(closed).toEqual(['vanished-subscriber', 'quiet']);
    expect(s.size).toBe(1);
    await s.closeAll();
  });
});
