import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';

const require = createRequire(import.meta.url);

// The client loads undici's Agent and request from their own modules (src/client/http.ts).
// These hold that they are still the very objects the package's index exports, so a bump of
// undici that moves or changes them fails here rather than in production.
describe('the undici parts the client loads by path', () => {
  const undici = require('undici') as typeof import('undici');

  it('the Agent is the class undici exports', () => {
    expect(Agent).toBe(undici.Agent);
  });

  it('request is the method undici puts on every dispatcher, and it answers through an Agent', async () => {
    expect(request).toBe((undici.Dispatcher.prototype as unknown as { request: unknown }).request);
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = new Agent();
    try {
      const { port } = server.address() as { port: number };
      const res = await request.call(agent, { origin: `http://127.0.0.1:${port}`, path: '/x?y=1', method: 'GET' });
      expect({ status: res.statusCode, body: await res.body.json() }).toEqual({ status: 200, body: { ok: true } });
    } finally {
      await agent.close();
      server.close();
    }
  });
});
