import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, type McpSession, callErr, callOk, startRelay, parseToolError, rawSession, runBinary, startMcp, toolNames } from './helpers.js';

const WRITE_TOOLS = ALL_TOOLS.filter((t) => t.endpoint.write)
  .map((t) => t.name)
  .sort();
const READ_TOOLS = ALL_TOOLS.filter((t) => !t.endpoint.write)
  .map((t) => t.name)
  .sort();
const INSIGHT_TOOLS = ALL_TOOLS.filter((t) => t.toolset === 'insights')
  .map((t) => t.name)
  .sort();
const toolsetOf = new Map(ALL_TOOLS.map((t) => [t.name, t.toolset]));
const QUIET = ['--log-level', 'warn'];

describe('--read-only registers no write tool; a write call is refused without reaching the API', () => {
  let sandbox: Sandbox;
  let proxy: Relay;
  let s: McpSession;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
    proxy = await startRelay(sandbox.baseUrl);
    s = await startMcp(['--read-only', '--workspace', 'acme', ...QUIET], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: proxy.url });
  });
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  it('every listed tool has readOnlyHint true, and the list is exactly the read tools', async () => {
    const { tools } = await s.client.listTools();
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    expect(tools.map((t) => t.name)).not.toContain('set_status');
  });
  it('calling set_status anyway is a tool error (or an unknown tool), and the lead is untouched', async () => {
    const lead = sandbox.store.leads.inGroup('acme').find((l) => l.status === 'interested')!;
    const before = proxy.requests.length;
    let code: string;
    try {
      code = (await callErr(s, 'set_status', { lead_id: lead.id, status: 'not_interested' })).error.code;
    } catch (e) {
      code = String((e as { code?: unknown }).code);
    }
    expect(['read_only', String(-32602)]).toContain(code);
    expect(proxy.requests.slice(before)).toEqual([]);
    expect(sandbox.store.leads.get(lead.id)!.status).toBe('interested');
  });
  it('a write called anyway: the next step says the server makes no change, to tell the person', async () => {
    const e = await callErr(s, 'mark_read', { lead_id: 'lead_abc123' });
    expect(e.error.code).toBe('read_only');
    expect(e.nextStep).toBe('This server runs read-only: it makes no change. Tell the person what you meant to change.');
  });
  it('reads still work', async () => {
    const { structured } = await callOk(s, 'list_leads', { limit: 2 });
    expect(structured.data).toHaveLength(2);
  });
});

describe('Scopes decide the tools: the readonly key sees no write and no insights tool', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(['--sandbox', '--sandbox-key', 'readonly', ...QUIET]);
  });
  afterAll(() => s?.close());

  it('tools/list is the read tools without insights, all readOnlyHint', async () => {
    const { tools } = await s.client.listTools();
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS.filter((n) => !INSIGHT_TOOLS.includes(n)));
  });
  it('a write tool called anyway is refused as a tool error naming the missing scope', async () => {
    const r = (await s.client.callTool({ name: 'mark_read', arguments: { lead_id: 'lead_abc123' } })) as CallToolResult;
    const e = parseToolError(r);
    expect(e.error.code).toBe('insufficient_scope');
    // The next step says what is missing and who can act, not only "use another tool".
    expect(e.nextStep).toBe('This key lacks the scope leads:write: only a key with it can; tell the person. tools/list shows what this key can do.');
  });
});

describe("Scopes withheld by the owner's role: the demoted key lists no insights tool but keeps the write tools", () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(['--sandbox', '--sandbox-key', 'demoted', ...QUIET]);
  });
  afterAll(() => s?.close());

  it('no insights tool; every write tool is there', async () => {
    const names = await toolNames(s);
    for (const t of INSIGHT_TOOLS) expect(names).not.toContain(t);
    for (const t of WRITE_TOOLS) expect(names).toContain(t);
    expect(names).toHaveLength(ALL_TOOLS.length - INSIGHT_TOOLS.length);
  });
  it('get_me shows insights:read withheld', async () => {
    const { structured } = await callOk(s, 'get_me');
    expect(structured.scopes_withheld).toContain('insights:read');
  });
});

describe('--toolsets serves only those areas; --tools adds single tools', () => {
  let only: McpSession;
  let plus: McpSession;
  beforeAll(async () => {
    [only, plus] = await Promise.all([
      startMcp(['--sandbox', '--toolsets', 'leads,tasks', ...QUIET]),
      startMcp(['--sandbox', '--toolsets', 'leads,tasks', '--tools', 'get_me', ...QUIET]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([only?.close(), plus?.close()]);
  });

  it('--toolsets leads,tasks: every tool of those two areas and nothing else', async () => {
    const names = await toolNames(only);
    for (const n of names) expect(['leads', 'tasks']).toContain(toolsetOf.get(n));
    expect(names).toEqual(
      ALL_TOOLS.filter((t) => t.toolset === 'leads' || t.toolset === 'tasks')
        .map((t) => t.name)
        .sort(),
    );
  });
  it('--tools get_me adds exactly that one tool', async () => {
    const base = await toolNames(only);
    expect(await toolNames(plus)).toEqual([...base, 'get_me'].sort());
  });
  it('the env twins REPLY_INBOX_TOOLSETS and REPLY_INBOX_TOOLS select the same tools as the flags', async () => {
    const env = await startMcp(['--sandbox', ...QUIET], { REPLY_INBOX_TOOLSETS: 'leads,tasks', REPLY_INBOX_TOOLS: 'get_me' });
    try {
      expect(await toolNames(env)).toEqual(await toolNames(plus));
    } finally {
      await env.close();
    }
  });
  it('a tool outside the selection is an unknown tool', async () => {
    await expect(only.client.callTool({ name: 'list_meetings', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('--workspace: the default workspace of tools', () => {
  let adminNoDefault: McpSession;
  let adminAcme: McpSession;
  let rep: McpSession;
  beforeAll(async () => {
    [adminNoDefault, adminAcme, rep] = await Promise.all([
      startMcp(['--sandbox', ...QUIET]),
      startMcp(['--sandbox', '--workspace', 'acme', ...QUIET]),
      startMcp(['--sandbox', '--sandbox-key', 'rep', ...QUIET]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([adminNoDefault?.close(), adminAcme?.close(), rep?.close()]);
  });

  it('admin key (three workspaces), no --workspace: a tool without workspace is invalid_request on workspace', async () => {
    const e = await callErr(adminNoDefault, 'list_leads', { limit: 1 });
    expect(e.error).toMatchObject({ code: 'invalid_request', param: 'workspace' });
    for (const ws of ['acme', 'globex', 'initech']) expect(e.error.message).toContain(ws);
    expect(e.nextStep).toContain('workspace');
  });
  it('the same server works when the call names the workspace', async () => {
    const { structured } = await callOk(adminNoDefault, 'list_leads', { workspace: 'globex', limit: 1, view: 'full' });
    expect(structured.data[0].workspace).toBe('globex');
  });
  it('with --workspace acme the same call works and reads acme', async () => {
    const { structured } = await callOk(adminAcme, 'list_leads', { limit: 1, view: 'full' });
    expect(structured.data[0].workspace).toBe('acme');
  });
  it('the rep key reaches one workspace and needs no workspace argument', async () => {
    const { structured } = await callOk(rep, 'list_leads', { limit: 1, view: 'full' });
    expect(structured.data[0].workspace).toBe('acme');
  });
});

describe('Binary errors exit 2 with a message on stderr, before any request', () => {
  let hits = 0;
  let url = '';
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(500).end();
  });
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('no key and no --sandbox: exit 2 naming REPLY_INBOX_API_KEY', async () => {
    const r = await runBinary([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('REPLY_INBOX_API_KEY');
    expect(r.stdout).toBe('');
  });
  it('a malformed key (--api-key nope --base-url http://127.0.0.1:9): exit 2', async () => {
    const r = await runBinary(['--api-key', 'nope', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed/i);
    expect(r.stdout).toBe('');
  });
  it('a malformed key against a listening API: exit 2 and the API saw no request', async () => {
    const r = await runBinary(['--api-key', 'nope', '--base-url', url]);
    expect(r.code).toBe(2);
    expect(hits).toBe(0);
  });
  it('an unknown --toolsets value: exit 2 naming the flag', async () => {
    const r = await runBinary(['--sandbox', '--toolsets', 'leads,crm']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--toolsets');
    expect(r.stdout).toBe('');
  });
});

describe('stdout carries nothing but JSON-RPC, even at --log-level debug', () => {
  it('a short session: every stdout line is a JSON-RPC 2.0 message; the logs went to stderr', async () => {
    const r = await rawSession(
      ['--sandbox', '--sandbox-key', 'rep', '--log-level', 'debug'],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_me', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_leads', arguments: { limit: 2 } } },
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_lead', arguments: { lead_id: 'lead_doesnotexist0' } } },
      ],
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(r.stdout.endsWith('\n')).toBe(true);
    const ids: unknown[] = [];
    for (const line of lines) {
      const msg = JSON.parse(line) as { jsonrpc?: string; id?: unknown; result?: unknown; error?: unknown; method?: string };
      expect(msg.jsonrpc).toBe('2.0');
      expect('result' in msg || 'error' in msg || typeof msg.method === 'string').toBe(true);
      if (msg.id !== undefined) ids.push(msg.id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(r.stderr.length).toBeGreaterThan(0);
    expect(r.stderr).not.toContain(SANDBOX_KEYS.rep);
  });
});
