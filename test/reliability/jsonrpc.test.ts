import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { BIN, cleanEnv, spawnTracked } from '../../scripts/harness/processes.js';
import { secretsIn } from '../../scripts/harness/reliability/helpers.js';

/**
 * Malformed JSON-RPC written straight to the binary's stdin, between well-formed
 * requests. JSON-RPC 2.0: a request that cannot be parsed is answered with -32700 (id
 * null), one that is not a valid Request with -32600, bad params with -32602, an unknown
 * method with -32601; and the server keeps serving.
 */
interface RpcAnswer {
  id?: unknown;
  result?: any;
  error?: { code: number; message: string };
}

let sandbox: Sandbox;
let answers: RpcAnswer[] = [];
let stdout = '';
let stderr = '';
let exitCode: number | null = null;

const INIT = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const line = (m: unknown) => (typeof m === 'string' ? m : JSON.stringify(m));
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** Everything written, in order: garbage between real requests, the last one a ping that marks the end. */
const SCRIPT: unknown[] = [
  '{not json',
  '\u0000\u0001\u00ff binary garbage',
  `{"jsonrpc":"2.0","id":"cut","method":"tools/list"`,
  INIT,
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  '[]',
  '42',
  '"a string"',
  { jsonrpc: '2.0', id: 'no-method' },
  { jsonrpc: '1.0', id: 'old-version', method: 'tools/list' },
  { jsonrpc: '2.0', id: 'params-string', method: 'tools/call', params: 'x' },
  { jsonrpc: '2.0', id: 'args-array', method: 'tools/call', params: { name: 'get_me', arguments: [1] } },
  { jsonrpc: '2.0', id: 'name-number', method: 'tools/call', params: { name: 42, arguments: {} } },
  { jsonrpc: '2.0', id: 'cursor-number', method: 'tools/list', params: { cursor: 5 } },
  { jsonrpc: '2.0', id: 'unknown-method', method: 'inbox/delete_everything' },
  { jsonrpc: '2.0', id: 'unknown-tool', method: 'tools/call', params: { name: 'send_email', arguments: {} } },
  // 10,000 levels deep: a response to no request (once an uncaught RangeError that ended the process), and a request.
  `{"jsonrpc":"2.0","id":987654,"result":${nested(10_000)}}`,
  `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"get_me","arguments":${nested(10_000)}}}`,
  `[${nested(10_000)}]`,
  `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"get_lead","arguments":{"lead_id":"${'x'.repeat(1_000_000)}"}}}`,
  { jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'get_me', arguments: {} } },
  { jsonrpc: '2.0', id: 'list-after', method: 'tools/list' },
  { jsonrpc: '2.0', id: 'last', method: 'ping' },
];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 40 });
  const child = spawnTracked(process.execPath, [BIN, '--log-level', 'debug'], {
    env: cleanEnv({ REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: sandbox.baseUrl }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const done = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (/"id":"last"/.test(stdout) && /"id":"after"/.test(stdout) && /"id":"list-after"/.test(stdout)) resolve();
    });
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  for (const m of SCRIPT) child.stdin.write(`${line(m)}\n`);
  await Promise.race([done, once(child, 'close')]);
  // Give answers still on their way a moment, then close stdin: the server should exit cleanly.
  await new Promise((r) => setTimeout(r, 300));
  child.stdin.end();
  [exitCode] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  answers = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RpcAnswer);
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
});

const answerTo = (id: unknown) => answers.find((a) => a.id === id);

describe('Malformed JSON-RPC on stdin: the server keeps serving', () => {
  it('stdout carries only JSON-RPC messages, one per line', () => {
    for (const l of stdout.split('\n').filter(Boolean)) expect(JSON.parse(l)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('after all the garbage, initialize, tools/call and tools/list are answered, and the server exits 0 when stdin closes', () => {
    expect(answerTo('init')?.result?.serverInfo?.name).toBe('reply-inbox-mcp');
    expect(answerTo('after')?.result?.structuredContent?.owner?.id).toBe('usr_ada');
    expect(answerTo('list-after')?.result?.tools).toHaveLength(TOOL_ENDPOINTS.length);
    expect(answerTo('last')?.result).toEqual({});
    expect(exitCode).toBe(0);
  });

  it('an unknown method is answered -32601 and an unknown tool -32602, for their ids', () => {
    expect(answerTo('unknown-method')?.error?.code).toBe(-32601);
    expect(answerTo('unknown-tool')?.error?.code).toBe(-32602);
  });

  it('a one-megabyte argument is answered as a tool error (a schema refusal), not dropped', () => {
    const a = answerTo('huge');
    expect(a?.result?.isError).toBe(true);
    expect(JSON.parse(a!.result.content[0].text.split('\n')[0]).error).toMatchObject({ code: 'invalid_id', param: 'lead_id' });
  });

  it('no key secret in its debug log', () => {
    expect(stderr.length).toBeGreaterThan(0);
    expect(secretsIn(stderr)).toEqual({});
  });
});

describe('Malformed JSON-RPC on stdin: the server answers with protocol errors', () => {
  it('a request with an id and params of the wrong shape is answered -32602 invalid params for that id', () => {
    for (const id of ['params-string', 'args-array', 'name-number', 'cursor-number']) {
      expect(answerTo(id)?.error?.code, `answer to ${id}: ${JSON.stringify(answerTo(id))?.slice(0, 200)}`).toBe(-32602);
    }
  });

  it('a message with an id that is not a valid request (no method, jsonrpc 1.0) is answered -32600 for that id', () => {
    for (const id of ['no-method', 'old-version']) {
      expect(answerTo(id)?.error?.code, `answer to ${id}`).toBe(-32600);
    }
  });

  it('a line that is not JSON, or JSON that is no request at all, is answered -32700 or -32600 with id null', () => {
    const nullIds = answers.filter((a) => a.id === null).map((a) => a.error?.code);
    // Three lines are not JSON; [], 42, "a string" and the deep array parse but are not requests.
    expect(nullIds.filter((c) => c === -32700)).toHaveLength(3);
    expect(nullIds.filter((c) => c === -32600)).toHaveLength(4);
  });

  it('a message nested 10,000 levels deep is refused unread: a request -32600 for its id, a response not answered, and the server keeps serving', () => {
    expect(answerTo('deep')?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/nests deeper than 100 levels/) });
    expect(answerTo(987654)).toBeUndefined();
    expect(answerTo('last')?.result).toEqual({});
    expect(stderr).not.toMatch(/RangeError/);
  });
});
