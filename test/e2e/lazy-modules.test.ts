import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';
import { BIN, cleanEnv } from './helpers.js';

const TRACER = fileURLToPath(new URL('../helpers/trace-modules.mjs', import.meta.url));
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'trace', version: '0' } } })}\n`;
let sb: Sandbox;
let redis: TestRedis;
const dir = mkdtempSync(join(tmpdir(), 'lazy-modules-'));

beforeAll(async () => {
  [sb, redis] = await Promise.all([sandbox(), startRedis()]);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([sb.close(), redis.stop()]);
});

/** Start the binary with these flags, wait until it serves (initialize answered, or the HTTP url printed), stop it, and list what it loaded. */
async function loaded(args: string[], name: string): Promise<string[]> {
  const file = join(dir, `${name}.txt`);
  const api: Record<string, string> = args.includes('--sandbox') ? {} : { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sb.baseUrl };
  const env = cleanEnv({ ...api, TRACE_MODULES_FILE: file });
  const child = spawn(process.execPath, ['--import', TRACER, BIN, '--log-level', 'silent', ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const http = args.includes('--http');
    if (!http) child.stdin.write(INITIALIZE);
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(chunk.toString()).toContain(http ? '"url"' : '"serverInfo"');
    if (http) {
      // Once it has answered a request it listens for SIGTERM too, and drains on it.
      const url = (JSON.parse(chunk.toString()) as { url: string }).url;
      expect((await fetch(url.replace(/\/mcp$/, '/healthz'))).status).toBe(200);
      child.kill('SIGTERM');
    } else child.stdin.end();
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  } finally {
    child.kill('SIGKILL');
  }
  return readFileSync(file, 'utf8').split('\n');
}

const has = (mods: string[], part: string) => mods.some((m) => m.includes(part));

/**
 * The binary is bundled (scripts/build-bin.ts): a module is loaded when the output file that
 * holds it is. The build's metafile says which file holds which module.
 */
const meta = JSON.parse(readFileSync(fileURLToPath(new URL('../../dist/mcp-bundle.meta.json', import.meta.url)), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};
function fileOf(module: string): string {
  const out = Object.entries(meta.outputs).find(([, o]) => module in o.inputs)?.[0];
  if (!out) throw new Error(`${module} is in no file of the bundled binary`);
  return `/${out}`;
}
const SANDBOX = fileOf('dist/src/sandbox/index.js');
const IOREDIS = '/node_modules/ioredis/';
const HTTP = fileOf('dist/src/mcp/transport/http/serve.js');
/** The limiter's Redis side (store, shared limiter and buckets): loaded with --redis only. */
const SHARED = [
  'dist/src/client/limiter/redis/limit-store.js',
  'dist/src/client/limiter/redis/shared-limiter.js',
  'dist/src/client/limiter/redis/redis-bucket-store.js',
].map(fileOf);

describe('The binary loads only what its mode uses', () => {
  it('over stdio against an API: no sandbox, no ioredis, no HTTP transport', async () => {
    const mods = await loaded([], 'stdio');
    expect(has(mods, fileOf('dist/src/mcp/transport/stdio.js'))).toBe(true);
    expect([has(mods, SANDBOX), has(mods, IOREDIS), has(mods, HTTP)]).toEqual([false, false, false]);
    expect(SHARED.filter((m) => has(mods, m))).toEqual([]);
  });

  it('each of those lives in a file of its own, apart from what every start loads', () => {
    const main = fileOf('dist/src/cli/mcp-main.js');
    expect(new Set([main, SANDBOX, HTTP, ...SHARED]).size).toBe(4);
  });

  it("holds only the parts of undici the client uses, not undici's index (fetch, WebSocket, mocks)", () => {
    const inputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    expect(inputs).toContain('node_modules/undici/lib/dispatcher/agent.js');
    const unused = /^node_modules\/undici\/(index\.js|lib\/(mock|cache|web\/(websocket|eventsource|cache))\/)/;
    expect(inputs.filter((i) => unused.test(i))).toEqual([]);
  });

  it("carries none of the SDK's Ajv: the SDK's shims are ours (confirm/sdk-shims.ts), whose default validator is the answer validator", () => {
    const inputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    expect(inputs).toContain('dist/src/mcp/confirm/sdk-shims.js');
    expect(inputs.filter((i) => /ajvProvider|shimsNode/.test(i))).toEqual([]);
  });

  it('--sandbox loads the sandbox; --redis loads ioredis; --http loads the HTTP transport', async () => {
    const [withSandbox, withRedis, withHttp] = await Promise.all([
      loaded(['--sandbox'], 'sandbox'),
      loaded(['--redis', redis.url], 'redis'),
      loaded(['--http', '127.0.0.1:0', '--http-token', 'trace-token-0123456789'], 'http'),
    ]);
    expect([has(withSandbox, SANDBOX), has(withSandbox, IOREDIS), has(withSandbox, HTTP)]).toEqual([true, false, false]);
    expect([has(withRedis, SANDBOX), has(withRedis, IOREDIS), has(withRedis, HTTP)]).toEqual([false, true, false]);
    expect(SHARED.filter((m) => has(withRedis, m))).toEqual(SHARED);
    expect([has(withHttp, SANDBOX), has(withHttp, IOREDIS), has(withHttp, HTTP)]).toEqual([false, false, true]);
  });
});
