import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { spawnTracked } from '../../scripts/harness/processes.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';

const CONFORMANCE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

let sb: Sandbox;
let bin: HttpBinary;
let relay: ReturnType<typeof createServer>;
let relayUrl: string;

/**
 * The scenario is written for servers without authentication; ours requires a key. A relay
 * in front adds the caller's Authorization and passes Host and Origin through untouched, so
 * what the scenario judges, the Host/Origin checks, is ours alone.
 */
beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  bin = await startHttpBinary(['--base-url', sb.baseUrl]);
  const target = new URL(bin.url);
  relay = createServer((req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${SANDBOX_KEYS.admin}` },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  relay.closeAllConnections();
  relay.close();
  await bin.stop('SIGKILL');
  await sb.close();
});

describe('DNS-rebinding protection: the dns-rebinding-protection scenario of @modelcontextprotocol/conformance passes', () => {
  it('a foreign Host/Origin is refused with 4xx and a localhost Host/Origin is accepted with 2xx', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-'));
    try {
      const child = spawnTracked(process.execPath, [CONFORMANCE, 'server', '--url', relayUrl, '--scenario', 'dns-rebinding-protection', '-o', out], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (d: Buffer) => (log += d.toString()));
      child.stderr.on('data', (d: Buffer) => (log += d.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, log).toBe(0);
      const run = readdirSync(out).find((d) => d.startsWith('server-dns-rebinding-protection'))!;
      const checks = JSON.parse(readFileSync(join(out, run, 'checks.json'), 'utf8')) as { id: string; status: string }[];
      expect(checks.map((c) => [c.id, c.status]).sort()).toEqual([
        ['localhost-host-rebinding-rejected', 'SUCCESS'],
        ['localhost-host-valid-accepted', 'SUCCESS'],
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
