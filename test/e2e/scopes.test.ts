import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { stdioTransport } from '../../scripts/harness/processes.js';
import { until } from '../helpers/until.js';
import { BIN, type Relay, parseToolError, startRelay } from './helpers.js';

/**
 * Scope changes while a client is connected: the demoted key's owner (Dee) is promoted or
 * demoted in the sandbox of this process, and the binary must follow, either at its
 * periodic GET /v1/me or when the API answers insufficient_scope.
 */
const INSIGHTS = ALL_TOOLS.filter((t) => t.toolset === 'insights')
  .map((t) => t.name)
  .sort();
const DEE = 'usr_dee';

interface Session {
  client: Client;
  /** notifications/tools/list_changed received so far. */
  listChanged(): number;
  logs: { level: string; data?: any }[];
  close(): Promise<void>;
}

/** The binary with the demoted key, handlers in place before the handshake. */
async function session(baseUrl: string, extra: string[]): Promise<Session> {
  const transport = stdioTransport(process.execPath, [
    BIN,
    '--api-key',
    SANDBOX_KEYS.demoted,
    '--base-url',
    baseUrl,
    '--workspace',
    'acme',
    '--log-level',
    'warn',
    ...extra,
  ]);
  const client = new Client({ name: 'e2e-scopes', version: '0.0.0' });
  let changed = 0;
  const logs: Session['logs'] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as Session['logs'][number]));
  await client.connect(transport);
  return { client, listChanged: () => changed, logs, close: () => client.close() };
}

async function insightTools(s: Session): Promise<string[]> {
  const { tools } = await s.client.listTools();
  return tools
    .map((t) => t.name)
    .filter((n) => INSIGHTS.includes(n))
    .sort();
}

let sandbox: Sandbox;
let proxy: Relay;
const meReads = (from: number) => proxy.requests.slice(from).filter((r) => r === 'GET /v1/me').length;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 100 });
  proxy = await startRelay(sandbox.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

describe('A scope change seen at the periodic GET /v1/me refresh updates the tool list and sends notifications/tools/list_changed', () => {
  let s: Session;
  beforeAll(async () => {
    sandbox.control.setUserRole(DEE, 'user');
    s = await session(proxy.url, ['--scope-refresh-seconds', '1']);
  });
  afterAll(async () => {
    await s?.close();
    sandbox.control.setUserRole(DEE, 'user');
  });

  it('at start the insights tools are hidden (insights:read withheld from a user), and the client is told which and why', async () => {
    expect(await insightTools(s)).toEqual([]);
    await until(
      'the tools-hidden notice',
      () => s.logs.some((l) => l.data?.event === 'tools_hidden'),
      () => s.logs,
    );
    const notice = s.logs.find((l) => l.data?.event === 'tools_hidden')!;
    expect(notice.level).toBe('notice');
    expect([...notice.data.tools].sort()).toEqual(INSIGHTS);
    expect(notice.data.message).toMatch(/insights:read/);
  });

  it('the owner promoted to admin: list_changed arrives, the insights tools are listed and work', async () => {
    const before = s.listChanged();
    sandbox.control.setUserRole(DEE, 'admin');
    await until(
      'list_changed after the promotion',
      () => s.listChanged() > before,
      () => s.logs,
    );
    expect(await insightTools(s)).toEqual(INSIGHTS);
    const r = (await s.client.callTool({ name: 'get_insights_summary', arguments: {} })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as any).object).toBe('insights_summary');
    const changed = s.logs.find((l) => l.data?.event === 'tools_changed');
    expect([...changed!.data.added].sort()).toEqual(INSIGHTS);
  });

  it('demoted again: list_changed again and the insights tools are gone', async () => {
    const before = s.listChanged();
    sandbox.control.setUserRole(DEE, 'user');
    await until(
      'list_changed after the demotion',
      () => s.listChanged() > before,
      () => s.logs,
    );
    expect(await insightTools(s)).toEqual([]);
  });

  it('nothing changed, nothing sent: refreshes keep running (about one GET /v1/me a second) without list_changed', async () => {
    const before = s.listChanged();
    const from = proxy.requests.length;
    await sleep(2_100);
    expect(meReads(from)).toBeGreaterThanOrEqual(2);
    expect(s.listChanged()).toBe(before);
  });
});

describe('A scope change seen on an insufficient_scope answer (refresh off) updates the tool list at once', () => {
  let s: Session;
  beforeAll(async () => {
    sandbox.control.setUserRole(DEE, 'admin');
    s = await session(proxy.url, ['--scope-refresh-seconds', '0']);
  });
  afterAll(async () => {
    await s?.close();
    sandbox.control.setUserRole(DEE, 'user');
  });

  it('--scope-refresh-seconds 0: no periodic GET /v1/me', async () => {
    expect(await insightTools(s)).toEqual(INSIGHTS);
    const from = proxy.requests.length;
    await sleep(1_200);
    expect(meReads(from)).toBe(0);
  });

  it('demoted behind its back: the refused call names the scope, then list_changed arrives and insights are gone', async () => {
    const before = s.listChanged();
    sandbox.control.setUserRole(DEE, 'user');
    const r = (await s.client.callTool({ name: 'get_insights_summary', arguments: {} })) as CallToolResult;
    expect(parseToolError(r).error).toMatchObject({ code: 'insufficient_scope', required_scope: 'insights:read' });
    await until(
      'list_changed after the refusal',
      () => s.listChanged() > before,
      () => s.logs,
    );
    expect(await insightTools(s)).toEqual([]);
  });
});
