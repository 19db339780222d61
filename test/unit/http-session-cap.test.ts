import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { InboxServer } from '../../src/mcp/server.js';
import { type HttpHandle, serveHttp } from '../../src/mcp/transport/http/serve.js';
import { INITIALIZE, mcpHeaders, raw } from '../../scripts/harness/http.js';

/**
 * The server-wide cap (--max-sessions) over HTTP, in this process with a clock the test moves:
 * a 200 to initialize is a session its client can use, however loaded the machine.
 */
const TOKEN = 'secret-token-123456';
const api = { me: async () => ({ data: { scopes: [], workspaces: [] } }), close: async () => undefined };
let t = 1_000_000;
const handles: HttpHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.drain();
});

async function serve(maxSessions: number): Promise<HttpHandle> {
  const h = await serveHttp({
    listen: { port: 0, host: '127.0.0.1' },
    auth: { kind: 'token', token: TOKEN, apiKey: 'unused' },
    allowedHosts: ['127.0.0.1'],
    maxSessions,
    now: () => t,
    newClient: () => api,
    newServer: (client) =>
      new InboxServer({ name: 't', version: '0', tools: [], api: client as never, selection: { readOnly: false }, log: createLogger('t', 'silent') }),
    log: createLogger('t', 'silent'),
  });
  handles.push(h);
  return h;
}

const auth = { authorization: `Bearer ${TOKEN}` };
async function initialize(url: string) {
  const r = await raw(url, { headers: mcpHeaders(auth), body: INITIALIZE });
  const error = r.status === 200 ? undefined : (JSON.parse(r.body) as { error: { message: string; data?: { limit?: string } } }).error;
  return { status: r.status, sessionId: r.headers['mcp-session-id'] as string | undefined, retryAfter: r.headers['retry-after'], error };
}
/** A request on the session (its client came back): 200 or 202 while it is open, 404 once closed. */
const post = (url: string, sessionId: string, body: object) =>
  raw(url, { headers: mcpHeaders({ ...auth, 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': sessionId }), body: JSON.stringify(body) });
const ping = async (url: string, sessionId: string) => (await post(url, sessionId, { jsonrpc: '2.0', id: 2, method: 'ping' })).status;

describe('--max-sessions never closes a session still in its handshake (answered 200, client not back yet, first 10 s)', () => {
  it('a full table of just-opened sessions refuses a new initialize with 503, Retry-After and error.data.limit; each 200 stays a session', async () => {
    const h = await serve(3);
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await initialize(h.url);
      expect(a.status).toBe(200);
      opened.push(a.sessionId!);
      t += 1_000;
    }
    const refused = await initialize(h.url);
    expect(refused.status).toBe(503);
    expect(refused.error?.data?.limit).toBe('max-sessions');
    expect(refused.error?.message).toMatch(/maximum of 3 MCP sessions \(--max-sessions\)/);
    // The first of them leaves its 10 s grace 7 s from now.
    expect(refused.retryAfter).toBe('7');
    expect(h.sessions()).toBe(3);
    for (const sid of opened) expect(await ping(h.url, sid)).toBe(200);
  });

  it('a session whose client came back goes first; one whose client never came back goes once its grace is over', async () => {
    const h = await serve(2);
    const a = await initialize(h.url);
    t += 1_000;
    const b = await initialize(h.url);
    // b's client sends its initialized notification, as every client does: an ordinary idle session now.
    expect((await post(h.url, b.sessionId!, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const c = await initialize(h.url);
    expect(c.status).toBe(200);
    expect(await ping(h.url, b.sessionId!)).toBe(404);
    // a and c never came back: the table is theirs for their grace, then a (the older) makes room.
    expect((await initialize(h.url)).status).toBe(503);
    t += 10_000;
    const d = await initialize(h.url);
    expect(d.status).toBe(200);
    expect(await ping(h.url, a.sessionId!)).toBe(404);
    expect(await ping(h.url, d.sessionId!)).toBe(200);
    expect(h.sessions()).toBe(2);
  });
});
