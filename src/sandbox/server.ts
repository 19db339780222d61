import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type ServerParts, handleRequest } from './exchange.js';

export type { ServerParts } from './exchange.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The sandbox's HTTP server: every request goes through the stages of exchange.ts; close ends open connections too. */
export function createSandboxServer(parts: ServerParts) {
  const { log } = parts;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    handleRequest(parts, req, res).catch((err) => {
      log.error({ err }, 'sandbox request crashed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    server,
    listen(port: number, host: string): Promise<AddressInfo> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server.address() as AddressInfo));
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
