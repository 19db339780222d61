import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { runBinary } from '../e2e/helpers.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Canned, type Outcome, type Relay, type Session, secretsIn, startRelay, startSession } from '../../scripts/harness/reliability/helpers.js';

/**
 * The API misbehaving under a running server: gone and back on the same port, refusing
 * connections, answering bodies that are not JSON or not the resource the spec names.
 * Each must give a clear tool error, and the server must keep serving.
 */
const STACK_FRAME = /\n\s+at .+:\d+:\d+/;
const opts = { now: TEST_NOW, logLevel: 'silent' as const, leads: 60, rateWindowMs: 1000 };
const env = (baseUrl: string) => ({ REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: baseUrl });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

function expectToolError(out: Outcome, code: string): Extract<Outcome, { kind: 'tool_error' }> {
  if (out.kind !== 'tool_error') throw new Error(`expected a ${code} tool error, got ${JSON.stringify(out).slice(0, 400)}`);
  expect(out.error.code).toBe(code);
  expect(out.nextStep.length).toBeGreaterThan(10);
  expect(out.text).not.toMatch(STACK_FRAME);
  return out;
}

describe('The API server going away mid-session and coming back: clear errors, the server stays up', () => {
  let sandbox: Sandbox;
  let s: Session;
  let port = 0;
  beforeAll(async () => {
    sandbox = await startSandbox({ ...opts, port: 0 });
    port = sandbox.port;
    s = await startSession(['--workspace', 'acme', '--log-level', 'debug'], env(sandbox.baseUrl));
  });
  afterAll(async () => {
    await s?.close();
    await sandbox?.close();
  });

  it('while it is gone, a read fails as network_error after its retries, naming the refused connection', async () => {
    expect((await s.call('list_members', {})).kind).toBe('ok');
    await sandbox.close();
    const out = expectToolError(await s.call('list_members', {}), 'network_error');
    expect(out.error.message).toMatch(/GET \/v1\/workspaces\/acme\/members failed on the connection \(ECONNREFUSED\)/);
    expect(out.error.status).toBeNull();
  });

  it('while it is gone, create_task is a plain network_error (never sent, so not outcome_unknown) and nothing is queued for later', async () => {
    const out = expectToolError(await s.call('create_task', { lead_id: 'lead_abc', notes: 'during the outage' }), 'network_error');
    expect(out.error.message).toContain('ECONNREFUSED');
  });

  it('once it is back on the same port, the same session reads and writes again', async () => {
    sandbox = await startSandbox({ ...opts, port });
    const lead = sandbox.store.leads.inGroup('acme')[0]!.id;
    expect((await s.call('list_members', {})).kind).toBe('ok');
    expect((await s.call('create_task', { lead_id: lead, notes: 'after the outage' })).kind).toBe('ok');
    // The write refused during the outage did not come back with the API.
    expect([...sandbox.store.tasks.all()].filter((t) => t.notes === 'during the outage')).toEqual([]);
    expect(s.alive()).toBe(true);
    expect(secretsIn(s.stderr())).toEqual({});
  });
});

describe('Connection refused or a name that does not resolve at start: a clear message and exit status 1, no stack trace', () => {
  it('connection refused: the binary says GET /v1/me failed on the connection and exits 1', async () => {
    const r = await runBinary(['--log-level', 'warn'], env(`http://127.0.0.1:${await closedPort()}`));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'reply-inbox-mcp: the API refused to say what this key may do (GET /v1/me): GET /v1/me failed on the connection (ECONNREFUSED).',
    );
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(secretsIn(r.stderr)).toEqual({});
  });

  it('DNS failure (a .invalid host): the same clear message and exit 1', async () => {
    const r = await runBinary(['--log-level', 'warn'], env('http://reply-inbox-api.invalid'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\(GET \/v1\/me\): GET \/v1\/me failed on the connection \((ENOTFOUND|EAI_AGAIN)\)\./);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(secretsIn(r.stderr)).toEqual({});
  });
});

describe('Responses that are not JSON, and 200s whose body does not match the schema: clear errors, the server stays up', () => {
  let sandbox: Sandbox;
  let relay: Relay;
  let s: Session;
  /** What the relay answers instead of the API, by request path. */
  const bad = new Map<string, Canned>();
  let lead = '';
  beforeAll(async () => {
    sandbox = await startSandbox({ ...opts, port: 0 });
    relay = await startRelay(sandbox.baseUrl);
    relay.override = (req) => bad.get((req.url ?? '').split('?')[0]!) ?? null;
    s = await startSession(['--workspace', 'acme', '--log-level', 'debug'], env(relay.url));
    lead = sandbox.store.leads.inGroup('acme')[0]!.id;
  });
  afterAll(async () => {
    await s?.close();
    await relay?.close();
    await sandbox?.close();
  });

  const answer = async (path: string, canned: Canned, tool: string, args: Record<string, unknown>) => {
    bad.set(path, canned);
    try {
      return await s.call(tool, args);
    } finally {
      bad.delete(path);
    }
  };

  it('an HTML page with status 200: invalid_response, saying the body is not JSON', async () => {
    const out = await answer(
      '/v1/workspaces/acme/members',
      { status: 200, contentType: 'text/html', body: '<html><body>Sign in</body></html>' },
      'list_members',
      {},
    );
    expect(expectToolError(out, 'invalid_response').error.message).toBe('list_members answered with a body that is not JSON.');
  });

  it('JSON cut off mid-body: invalid_response', async () => {
    const out = await answer('/v1/workspaces/acme/tasks', { status: 200, body: '{"object":"list","data":[{"id":"tsk_' }, 'list_tasks', {});
    expectToolError(out, 'invalid_response');
  });

  it('a 500 with a plain-text body: internal_error saying there was no error body', async () => {
    const out = await answer('/v1/workspaces/acme', { status: 500, contentType: 'text/plain', body: 'Internal Server Error' }, 'get_workspace', {});
    expect(expectToolError(out, 'internal_error').error.message).toBe('get_workspace answered HTTP 500 without an error body.');
  });

  it('a 502 HTML page from a proxy, every retry: upstream_error', async () => {
    const out = await answer('/v1/workspaces/acme/notes', { status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }, 'list_notes', {});
    expectToolError(out, 'upstream_error');
  });

  /** A clear error: an isError result that names the tool and no JavaScript internals. */
  const expectClear = (out: Outcome, tool: string) => {
    if (out.kind !== 'tool_error') throw new Error(`expected a tool error, got ${JSON.stringify(out).slice(0, 400)}`);
    expect(out.error.message).toContain(tool);
    expect(out.error.message).not.toMatch(/undefined|null is not|not iterable|Cannot read|is not a function/);
    expect(out.text).not.toMatch(STACK_FRAME);
    return out;
  };

  it('a 200 list whose data is not an array: a clear tool error, not a result that breaks its own output schema', async () => {
    const out = await answer(
      '/v1/workspaces/acme/members',
      { status: 200, body: '{"object":"list","data":"surprise","has_more":"maybe"}' },
      'list_members',
      {},
    );
    expectClear(out, 'list_members');
  });

  it('a 200 lead that is not a lead: a clear tool error, not an empty lead', async () => {
    const out = await answer(`/v1/workspaces/acme/leads/${lead}`, { status: 200, body: '{"unexpected":true}' }, 'get_lead', { lead_id: lead });
    expectClear(out, 'get_lead');
  });

  it('a 200 conversation whose data is null: a clear tool error', async () => {
    const out = await answer(`/v1/workspaces/acme/leads/${lead}/messages`, { status: 200, body: '{"object":"list","data":null}' }, 'get_conversation', {
      lead_id: lead,
    });
    expectClear(out, 'get_conversation');
  });

  it('a 200 list_notes whose body is null: a clear tool error', async () => {
    const out = await answer('/v1/workspaces/acme/notes', { status: 200, body: 'null' }, 'list_notes', {});
    expectClear(out, 'list_notes');
  });

  it('a 201 create_task whose body is an array: a tool error (not a JSON-RPC error) that says to check list_tasks before creating again', async () => {
    const out = await answer('/v1/workspaces/acme/tasks', { status: 201, body: '[]' }, 'create_task', { lead_id: lead, notes: 'x' });
    expect(expectClear(out, 'create_task').text).toContain('list_tasks');
  });

  it('after every bad answer the server is up and the same calls succeed again', async () => {
    expect(s.alive()).toBe(true);
    for (const [tool, args] of [
      ['list_members', {}],
      ['list_tasks', {}],
      ['get_workspace', {}],
      ['list_notes', {}],
      ['get_lead', { lead_id: lead }],
      ['get_conversation', { lead_id: lead }],
    ] as const) {
      const out = await s.call(tool, args);
      expect(out.kind, `${tool}: ${JSON.stringify(out).slice(0, 200)}`).toBe('ok');
    }
    expect(s.stderr()).not.toMatch(/uncaught|unhandled|"level":60/i);
    expect(secretsIn(s.stderr())).toEqual({});
  });
});
