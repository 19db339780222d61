import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Http, type HttpRequest } from '../../src/client/http.js';

/** A raw server whose answer each test chooses, and the connections it was opened. */
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');
let connections = 0;
const server = createServer((req, res) => answer(req, res));
server.on('connection', () => connections++);
let base = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const get = (path: string): HttpRequest => ({ endpoint: 'get_me', method: 'GET', path, headers: {}, signal: new AbortController().signal, maxBodyBytes: 1024 });
const short = { connectMs: 1_000, headersMs: 150, bodyMs: 150, deadlineMs: 5_000 };

describe('Http over node:http', () => {
  it('no response headers in time is a headers timeout, perhaps sent', async () => {
    answer = () => undefined;
    const http = new Http(base, short);
    await expect(http.send(get('/v1/me'))).rejects.toMatchObject({ code: 'timeout', phase: 'headers', sent: 'maybe' });
    await http.close();
  });

  it('a body that stops between two chunks is a body timeout', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    };
    const http = new Http(base, short);
    await expect(http.send(get('/v1/me'))).rejects.toMatchObject({ code: 'timeout', phase: 'body', sent: 'maybe' });
    await http.close();
  });

  it('keeps one connection alive across calls, sends a body with its length, and closes after the call in flight', async () => {
    const seen: string[] = [];
    answer = (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push(`${req.headers['content-length']}:${body}`);
        setTimeout(() => res.end(JSON.stringify({ ok: true })), 20);
      });
    };
    const http = new Http(base, short);
    const before = connections;
    const post = { ...get('/v1/x'), method: 'POST', body: '{"n":"é"}', headers: { 'content-type': 'application/json' } };
    expect((await http.send(post)).status).toBe(200);
    const last = http.send(post);
    await new Promise((r) => setTimeout(r, 5));
    await http.close();
    expect((await last).body.toString()).toBe('{"ok":true}');
    expect(connections - before).toBe(1);
    expect(seen).toEqual(['10:{"n":"é"}', '10:{"n":"é"}']);
    await expect(http.send(get('/v1/me'))).rejects.toMatchObject({ code: 'network_error', sent: 'no' });
  });
});
