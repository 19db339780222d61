import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { connectHttp, type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';
import { type Era, type McpSession, startMcp } from './helpers.js';

/**
 * Both protocol eras, on both transports, against the built binary: a 2026-07-28 client (the
 * SDK pinned to it: no initialize, the envelope on each request) and a 2025 client (the
 * initialize handshake) each list and call tools, read a resource and get a prompt.
 */
const ERAS: Era[] = ['modern', 'legacy'];
const ARGS = ['--sandbox', '--workspace', 'acme'];

async function everything(client: Client, era: Era): Promise<void> {
  expect(client.getProtocolEra()).toBe(era);
  expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name)).toContain('list_leads');
  const r = await client.callTool({ name: 'list_leads', arguments: { limit: 2 } });
  expect(r.isError).toBeFalsy();
  expect((r.structuredContent as { data: unknown[] }).data).toHaveLength(2);
  const read = await client.readResource({ uri: 'inbox://capabilities' });
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ object: 'capabilities' });
  const prompt = await client.getPrompt({ name: 'triage_inbox', arguments: { count: '5' } });
  expect(JSON.stringify(prompt.messages)).toContain('limit=5');
}

describe.each(ERAS)('over stdio, a %s client', (era) => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(ARGS, {}, {}, era);
  });
  afterAll(async () => s?.close());

  it('lists and calls tools, reads a resource and gets a prompt', async () => {
    await everything(s.client, era);
  });
});

describe('over stdio, a 2026-07-28 listen stream', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp([...ARGS, '--watch-seconds', '1', '--sandbox-reply-seconds', '1'], {}, {}, 'modern');
  });
  afterAll(async () => s?.close());

  it('hears the inbox change a 2025 subscription hears, and a URI that cannot be watched is refused', async () => {
    const heard: string[] = [];
    s.client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
    await expect(s.client.listen({ resourceSubscriptions: ['inbox://acme/tasks'] })).rejects.toThrow(/can be subscribed to/);
    const listening = await s.client.listen({ resourceSubscriptions: ['inbox://acme/leads'] });
    const deadline = Date.now() + 20_000;
    while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(heard).toContain('inbox://acme/leads');
    await listening.close();
  });
});

describe('over HTTP', () => {
  let bin: HttpBinary;
  const clients: Client[] = [];
  beforeAll(async () => {
    bin = await startHttpBinary([...ARGS, '--watch-seconds', '1', '--sandbox-reply-seconds', '1']);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await bin?.stop();
  });
  const connect = async (era: Era) => {
    const c = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`, era);
    clients.push(c);
    return c;
  };

  it.each(ERAS)('a %s client lists and calls tools, reads a resource and gets a prompt', async (era) => {
    await everything(await connect(era), era);
  });

  it('a 2026-07-28 client holds no session: its requests carry no mcp-session-id and the server keeps none', async () => {
    const before = await health(bin.url);
    const c = await connect('modern');
    await c.callTool({ name: 'get_me', arguments: {} });
    expect((await health(bin.url)).sessions).toBe(before.sessions);
  });

  it('a 2026-07-28 listen stream hears the inbox change that a 2025 subscription hears', async () => {
    const modern = await connect('modern');
    const legacy = await connect('legacy');
    const heard: Record<Era, string[]> = { modern: [], legacy: [] };
    modern.setNotificationHandler('notifications/resources/updated', (n) => void heard.modern.push(n.params.uri));
    legacy.setNotificationHandler('notifications/resources/updated', (n) => void heard.legacy.push(n.params.uri));
    const listening = await modern.listen({ resourceSubscriptions: ['inbox://acme/leads'] });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual(['inbox://acme/leads']);
    await legacy.subscribeResource({ uri: 'inbox://acme/leads' });
    // The embedded sandbox makes a seeded lead reply every second; the watch polls every second.
    const deadline = Date.now() + 20_000;
    while ((heard.modern.length === 0 || heard.legacy.length === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(heard.modern).toContain('inbox://acme/leads');
    expect(heard.legacy).toContain('inbox://acme/leads');
    await listening.close();
  });

  it('a listen naming a URI that cannot be watched is refused, naming what can', async () => {
    const modern = await connect('modern');
    await expect(modern.listen({ resourceSubscriptions: ['inbox://acme/tasks'] })).rejects.toThrow(/can be subscribed to/);
  });
});

async function health(url: string): Promise<{ sessions: number }> {
  const r = await fetch(new URL('/healthz', url));
  return (await r.json()) as { sessions: number };
}
