import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import type { InboxServer } from '../../src/mcp/server.js';
import { AuthFailures } from '../../src/mcp/transport/http/auth-failures.js';
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
    const f = new AuthFailures(3);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(f.retryAfter('10.0.0.1', t0)).toBe(0);
      f.failed('10.0.0.1', t0);
    }
    expect(f.retryAfter('10.0.0.1', t0 + 15_000)).toBe(45);
    expect(f.retryAfter('10.0.0.2', t0)).toBe(0);
    expect(f.retryAfter('10.0.0.1', t0 + 60_000)).toBe(0);
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
});

describe('Sessions: one key cannot take every session', () => {
  const session = (id: string, owner: string, lastSeen: number, busy: number, closed: string[]): Session => ({
    id,
    owner,
    lastSeen,
    busy,
    server: {} as InboxServer,
    transport: { close: async () => void closed.push(id) } as unknown as StreamableHTTPServerTransport,
  });

  it("a key at its cap gives up its own longest-idle session, never a busy one or another key's", async () => {
    const closed: string[] = [];
    const s = new Sessions(100, 60_000);
    for (const x of [
      session('k1-old', 'k', 1, 0, closed),
      session('k1-busy', 'k', 0, 1, closed),
      session('k1-new', 'k', 5, 0, closed),
      session('other', 'o', 0, 0, closed),
    ]) {
      s.reserve();
      s.add(x);
    }
    expect(await s.makeRoomFor('k', 3)).toBe(true);
    expect(closed).toEqual(['k1-old']);
    expect(s.get('k1-old')).toBeUndefined();
    expect(await s.makeRoomFor('o', 3)).toBe(true);
    expect(closed).toEqual(['k1-old']);
    await s.closeAll();
  });

  it('when every session of the key is busy, there is no room', async () => {
    const closed: string[] = [];
    const s = new Sessions(100, 60_000);
    for (const x of [session('a', 'k', 1, 1, closed), session('b', 'k', 2, 2, closed)]) {
      s.reserve();
      s.add(x);
    }
    expect(await s.makeRoomFor('k', 2)).toBe(false);
    expect(closed).toEqual([]);
    await s.closeAll();
  });
});
