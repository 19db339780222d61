import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { stdioTransport } from '../../scripts/harness/processes.js';
import { until } from '../helpers/until.js';
import { BIN, type Relay, parseToolError, startRelay } from './helpers.js';
import { MAX_ITEMS_BOUND } from '../../src/mcp/declare/shared-args.js';

/**
 * Long work and what the client is told: multi-page list reads with progress and
 * cancellation, and notable events as MCP log messages at the level the client set.
 */
type LogParams = { level: string; logger?: string; data?: any };

interface Session {
  client: Client;
  logs: LogParams[];
  /** Errors the SDK client reported, e.g. a progress notification for a request it no longer waits on. */
  errors: Error[];
  stderr(): string;
  close(): Promise<void>;
}

/** The binary over stdio, with the log handler in place before the handshake so nothing is missed. */
async function session(args: string[], env: Record<string, string>): Promise<Session> {
  const transport = stdioTransport(process.execPath, [BIN, ...args], env);
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'e2e-progress', version: '0.0.0' });
  const logs: LogParams[] = [];
  const errors: Error[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as LogParams));
  client.onerror = (e) => void errors.push(e);
  await client.connect(transport);
  await client.listTools();
  return { client, logs, errors, stderr: () => err, close: () => client.close() };
}

async function apiPage(baseUrl: string, path: string, query: Record<string, string | number>, key = SANDBOX_KEYS.admin): Promise<any> {
  const url = new URL(path, baseUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const r = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  expect(r.status).toBe(200);
  return r.json();
}
async function apiIds(baseUrl: string, path: string, max: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await apiPage(baseUrl, path, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.data.map((x: { id: string }) => x.id));
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor && out.length < max);
  return out.slice(0, max);
}

describe('Multi-page list reads: max_items or all (bounded), paged under the rate limiter, progress in order', () => {
  let sandbox: Sandbox;
  let proxy: Relay;
  let s: Session;
  const leadPages = (from: number) => proxy.requests.slice(from).filter((r) => r.startsWith('GET /v1/workspaces/acme/leads?'));
  beforeAll(async () => {
    // Slow enough that a cancellation lands between pages, fast enough for a short test.
    sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 1_200, faults: 'latency_ms=100' });
    proxy = await startRelay(sandbox.baseUrl);
    // Paging is under test here, not the result budget (test/e2e/result-budget.test.ts): 1,000 leads must fit whole.
    s = await session(['--workspace', 'acme', '--log-level', 'warn', '--max-result-bytes', '10485760'], {
      REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
      REPLY_INBOX_BASE_URL: proxy.url,
    });
  });
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  it('list_leads max_items=1000: progress 200, 400, 600, 800, 1000 of 1000, in order, one per page', async () => {
    const progress: Progress[] = [];
    const from = proxy.requests.length;
    const r = (await s.client.callTool(
      { name: 'list_leads', arguments: { max_items: 1000 } },
      {
        onprogress: (p) => void progress.push(p),
      },
    )) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(progress.map((p) => p.progress)).toEqual([200, 400, 600, 800, 1000]);
    for (const p of progress) expect(p.total).toBe(1000);
    expect(progress.map((p) => p.message)).toEqual([1, 2, 3, 4, 5].map((n) => `page ${n}: ${n * 200} items read`));
    const pages = leadPages(from);
    expect(pages).toHaveLength(5);
    for (const p of pages) expect(p).toMatch(/[?&]limit=200(&|$)/);
  });

  it('the result is the first 1000 leads as the API pages them, with pages_read, has_more and a cursor that continues', async () => {
    const r = (await s.client.callTool({ name: 'list_leads', arguments: { max_items: 1000 } })) as CallToolResult;
    const out = r.structuredContent as any;
    const expected = await apiIds(sandbox.baseUrl, '/v1/workspaces/acme/leads', 1001);
    expect(out.data.map((l: any) => l.id)).toEqual(expected.slice(0, 1000));
    expect(out).toMatchObject({ object: 'list', pages_read: 5, has_more: true });
    expect(out.partial).toBeUndefined();
    const next = (await s.client.callTool({ name: 'list_leads', arguments: { cursor: out.next_cursor, limit: 1 } })) as CallToolResult;
    expect((next.structuredContent as any).data[0].id).toBe(expected[1000]);
    // Rows stay compact, as on one page; the text says how far the read went.
    expect(Object.keys(out.data[0])).not.toContain('indexed_at');
    expect((r.content[0] as { text: string }).text).toMatch(/Read 1000 items over 5 pages; more remain: continue with cursor "/);
  });

  it('max_items=450: pages of 200, 200 and 50, never more than asked', async () => {
    const from = proxy.requests.length;
    const r = (await s.client.callTool({
      name: 'list_leads',
      arguments: { max_items: 450, status: ['interested', 'untagged', 'automated', 'not_interested', 'unsubscribed'] },
    })) as CallToolResult;
    expect((r.structuredContent as any).data).toHaveLength(450);
    expect(leadPages(from).map((p) => /limit=(\d+)/.exec(p)?.[1])).toEqual(['200', '200', '50']);
  });

  it(`all=true reads to the end of a short list (has_more false), and stops at ${MAX_ITEMS_BOUND} on a long one`, async () => {
    const members = (await s.client.callTool({ name: 'list_members', arguments: { all: true } })) as CallToolResult;
    const m = members.structuredContent as any;
    expect(m.data.map((x: any) => x.id)).toEqual(await apiIds(sandbox.baseUrl, '/v1/workspaces/acme/members', 10_000));
    expect(m).toMatchObject({ pages_read: 1, has_more: false });
    expect(m).not.toHaveProperty('next_cursor');
    const leads = (await s.client.callTool({ name: 'list_leads', arguments: { all: true } })) as CallToolResult;
    expect((leads.structuredContent as any).data).toHaveLength(MAX_ITEMS_BOUND);
    expect((leads.structuredContent as any).has_more).toBe(true);
  });

  it("the same arguments on a tool without its own shaping (list_tasks): the API's items, pages merged", async () => {
    const r = (await s.client.callTool({ name: 'list_tasks', arguments: { max_items: 250 } })) as CallToolResult;
    const expected = await apiIds(sandbox.baseUrl, '/v1/workspaces/acme/tasks', 250);
    expect((r.structuredContent as any).data.map((t: any) => t.id)).toEqual(expected);
    expect((r.structuredContent as any).pages_read).toBe(Math.ceil(expected.length / 200) || 1);
  });

  it('no progress token, no progress notifications', async () => {
    const before = s.errors.length;
    await s.client.callTool({ name: 'list_leads', arguments: { max_items: 400 } });
    await sleep(100);
    expect(s.errors.slice(before)).toEqual([]);
  });

  it('cancellation stops the paging at once: no page is asked for after it, and no progress follows', async () => {
    const from = proxy.requests.length;
    const errorsBefore = s.errors.length;
    const ac = new AbortController();
    const progress: number[] = [];
    const call = s.client.callTool(
      { name: 'list_leads', arguments: { max_items: 1000 } },
      {
        signal: ac.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          ac.abort('enough');
        },
      },
    );
    await expect(call).rejects.toThrow();
    // Uncancelled, the last three pages would arrive within this wait.
    await sleep(800);
    expect(progress).toEqual([200]);
    expect(leadPages(from).length).toBeLessThanOrEqual(2);
    expect(s.errors.slice(errorsBefore).filter((e) => /progress/.test(e.message))).toEqual([]);
    const after = (await s.client.callTool({ name: 'list_leads', arguments: { limit: 1 } })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  });

  it('bounds are checked before any request: max_items 0 or 1001, and no multi-page argument on a tool that is not a list', async () => {
    const from = proxy.requests.length;
    for (const max of [0, MAX_ITEMS_BOUND + 1]) {
      const e = parseToolError((await s.client.callTool({ name: 'list_leads', arguments: { max_items: max } })) as CallToolResult);
      expect(e.error).toMatchObject({ code: 'invalid_request', param: 'max_items' });
    }
    const lead = parseToolError((await s.client.callTool({ name: 'get_lead', arguments: { lead_id: 'lead_abc123', all: true } })) as CallToolResult);
    expect(lead.error).toMatchObject({ code: 'invalid_request', param: 'all' });
    expect(proxy.requests.slice(from)).toEqual([]);
  });
});

describe.concurrent('Notable events reach the client as MCP log messages at the level it set, and stderr', () => {
  let throttled: Sandbox;
  let failing: Sandbox;
  beforeAll(async () => {
    [throttled, failing] = await Promise.all([
      // The sandbox's /v1/me reports the limits it enforces: the client learns 2 upstream calls a minute.
      startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 50, bucketLimits: { upstream: 2 } }),
      startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 50, faults: 'upstream_error=1' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([throttled?.close(), failing?.close()]);
  });

  /**
   * Spend the upstream bucket: two meeting lists (never cached), then a third that finds it
   * spent. That one waits for the refill (cancelled here), or, when the minute's refill comes
   * after its deadline (the first seconds of a minute), is answered rate_limited at once.
   */
  async function spendUpstream(s: Session, workspace: string): Promise<void> {
    for (let i = 0; i < 2; i++)
      expect(((await s.client.callTool({ name: 'list_meetings', arguments: { workspace, limit: 1 } })) as CallToolResult).isError).toBeFalsy();
    const ac = new AbortController();
    let settled = false;
    const third = s.client.callTool({ name: 'list_meetings', arguments: { workspace, limit: 1 } }, { signal: ac.signal }).then(
      (r) => r as CallToolResult,
      (e: unknown) => e as Error,
    );
    void third.finally(() => (settled = true));
    // Cancelled once the server has met the spent bucket (its line on stderr), never before:
    // a cancel sent on a timer could reach a busy server before the call did.
    await until(
      'the third call to meet the spent bucket',
      () => settled || /Rate bucket 'upstream' is spent/.test(s.stderr()),
      () => s.stderr(),
    );
    ac.abort('no need to wait for the refill');
    const r = await third;
    if (!(r instanceof Error)) expect(parseToolError(r).error).toMatchObject({ code: 'rate_limited', bucket: 'upstream' });
  }

  it('a bucket throttling is a warning naming the bucket, in the MCP log and on stderr', async () => {
    const s = await session(['--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.globex, REPLY_INBOX_BASE_URL: throttled.baseUrl });
    try {
      await s.client.setLoggingLevel('warning');
      await spendUpstream(s, 'globex');
      await until(
        'the throttling notice',
        () => s.logs.some((l) => l.data?.event === 'throttled'),
        () => [s.logs, s.stderr()],
      );
      const notice = s.logs.find((l) => l.data?.event === 'throttled')!;
      expect(notice).toMatchObject({ level: 'warning', logger: 'reply-inbox-mcp', data: { bucket: 'upstream' } });
      expect(notice.data.message).toMatch(/Rate bucket 'upstream' is spent/);
      // stderr is a pipe of its own: its line may arrive after the MCP message.
      await until(
        'the throttling line on stderr',
        () => /Rate bucket 'upstream' is spent/.test(s.stderr()),
        () => s.stderr(),
      );
    } finally {
      await s.close();
    }
  });

  it("below the client's level nothing is sent: with level error the throttling goes to stderr only", async () => {
    const s = await session(['--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: throttled.baseUrl });
    try {
      await s.client.setLoggingLevel('error');
      await spendUpstream(s, 'acme');
      await until(
        'the throttling line on stderr',
        () => /Rate bucket 'upstream' is spent/.test(s.stderr()),
        () => s.stderr(),
      );
      await sleep(100);
      expect(s.logs.filter((l) => l.data?.event === 'throttled')).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('an upstream failure is an error message naming the call and the code; a refused argument or a missing lead is not', async () => {
    const s = await session(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: failing.baseUrl });
    try {
      await s.client.setLoggingLevel('error');
      const quiet = (await s.client.callTool({ name: 'get_lead', arguments: { lead_id: 'lead_doesnotexist1' } })) as CallToolResult;
      expect(parseToolError(quiet).error.code).toBe('not_found');
      const r = (await s.client.callTool({ name: 'list_campaigns', arguments: {} })) as CallToolResult;
      expect(parseToolError(r).error.code).toBe('upstream_error');
      await until(
        'the failure notice',
        () => s.logs.some((l) => l.data?.event === 'upstream_failure'),
        () => [r, s.logs, s.stderr()],
      );
      expect(s.logs).toHaveLength(1);
      expect(s.logs[0]).toMatchObject({ level: 'error', data: { event: 'upstream_failure', what: 'list_campaigns', code: 'upstream_error', status: 502 } });
      // The MCP message and the stderr line are written apart: the line may come a moment later.
      await until(
        'the failure on stderr',
        () => /list_campaigns failed upstream: upstream_error/.test(s.stderr()),
        () => [s.stderr()],
      );
    } finally {
      await s.close();
    }
  });
});
