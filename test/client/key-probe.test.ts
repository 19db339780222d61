import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/client/errors.js';
import { KeyProbe } from '../../src/client/key-probe.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** An API whose first `drops` requests lose their connection before any answer (as a pooled socket the API closed while idle). */
async function api(drops: number): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  server = createServer((req, res) => {
    seen++;
    if (seen <= drops) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'me', key: { id: 'key_1' } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => seen };
}

describe('KeyProbe: GET /v1/me for a new key', () => {
  it('a connection lost before any answer is tried once more, so the caller is not refused for it', async () => {
    const a = await api(1);
    const probe = new KeyProbe(a.url, 'test');
    try {
      const me = await probe.me('rik_live_abcdefgh_0123456789abcdef0123456789abcdef');
      expect(me.data).toMatchObject({ object: 'me' });
      expect(a.seen()).toBe(2);
    } finally {
      await probe.close();
    }
  });

  it('only once: a second lost connection is the network error', async () => {
    const a = await api(5);
    const probe = new KeyProbe(a.url, 'test');
    try {
      await expect(probe.me('rik_live_abcdefgh_0123456789abcdef0123456789abcdef')).rejects.toBeInstanceOf(NetworkError);
      expect(a.seen()).toBe(2);
    } finally {
      await probe.close();
    }
  });
});
