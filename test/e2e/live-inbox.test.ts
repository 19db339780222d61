import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type Relay, type McpSession, startRelay, startMcp } from './helpers.js';
import { type HttpBinary, connectHttp, startHttpBinary } from '../../scripts/harness/http.js';

/**
 * A live inbox: a client subscribes to leads, a lead and its conversation; a lead replies in
 * the sandbox; the server's poller finds it (list_leads with updated_since) and tells the
 * client notifications/resources/updated. Polls are counted at a relay before the sandbox.
 */
const WATCH = ['--watch-seconds', '1'];

interface Live {
  sandbox: Sandbox;
  proxy: Relay;
  close(): Promise<void>;
}

async function liveApi(options: SandboxOptions = {}): Promise<Live> {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', ...options });
  const proxy = await startRelay(sandbox.baseUrl);
  return {
    sandbox,
    proxy,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** The poller's requests: the baseline (limit=100) and the polls (updated_since). */
const polls = (p: Relay) => p.requests.filter((r) => /^GET \/v1\/workspaces\/acme\/leads\?(.*updated_since=|limit=100$)/.test(r)).length;

/** Every URI this client was told changed, in order. */
function updatesOf(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(n.params.uri);
  });
  return seen;
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seeded acme leads, newest first. */
function acmeLeads(sandbox: Sandbox): string[] {
  return [...sandbox.store.leads.all()].filter((l) => l.workspace === 'acme').map((l) => l.id);
}

/** Subscribe, make a lead reply, hear of it within two polls, read the new message; unsubscribe and polling stops. */
async function liveScenario(live: Live, client: Client): Promise<void> {
  const updates = updatesOf(client);
  const [lead, other] = acmeLeads(live.sandbox);
  const uris = [`inbox://acme/leads`, `inbox://acme/leads/${lead}`, `inbox://acme/leads/${lead}/conversation`, `inbox://acme/leads/${other}`];
  for (const uri of uris) await client.subscribeResource({ uri });
  const reply = live.sandbox.control.simulateInboundReply(lead!);
  const pollsAtReply = polls(live.proxy);
  await until('the updates of the lead that replied', () => uris.slice(0, 3).every((u) => updates.includes(u)));
  // Within two poll intervals: at most two polls after the reply found it.
  expect(polls(live.proxy) - pollsAtReply, live.proxy.requests.slice(-6).join('\n')).toBeLessThanOrEqual(2);
  expect(updates).not.toContain(uris[3]);
  const conversation = await client.readResource({ uri: uris[2]! });
  const text = (conversation.contents[0] as { text: string }).text;
  expect(text).toContain('Circling back on this: is the offer still open');
  expect(text).toContain(reply.received_at);

  for (const uri of uris) await client.unsubscribeResource({ uri });
  // A poll already on its way may land (the machine may be slow); after that, nothing.
  await sleep(1_000);
  const after = polls(live.proxy);
  await sleep(3_000);
  expect(polls(live.proxy)).toBe(after);
}

describe('over stdio: subscribe, a lead replies, the client hears it and reads the new message', () => {
  let live: Live;
  let s: McpSession;
  beforeAll(async () => {
    live = await liveApi();
    s = await startMcp(['--workspace', 'acme', '--log-level', 'warn', ...WATCH], {
      REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
      REPLY_INBOX_BASE_URL: live.proxy.url,
    });
  });
  afterAll(async () => {
    await s?.close();
    await live?.close();
  });

  it('the server declares resources.subscribe and lists the leads resource', async () => {
    expect(s.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('inbox://{workspace}/leads');
  });

  it('updates within two polls, the new message through the conversation resource; after unsubscribing no more polls', async () => {
    await liveScenario(live, s.client);
  });

  it('only leads, a lead and its conversation can be subscribed to, in a workspace the key reaches', async () => {
    await expect(s.client.subscribeResource({ uri: 'inbox://acme/playbook' })).rejects.toThrow(/can be subscribed to/);
    await expect(s.client.subscribeResource({ uri: 'inbox://acme/leads/not-a-lead' })).rejects.toThrow(/not a lead id/);
    await expect(s.client.subscribeResource({ uri: 'inbox://nowhere/leads' })).rejects.toThrow(/does not reach/);
  });

  it('a write through a tool tells the subscribers of its lead at once', async () => {
    const updates = updatesOf(s.client);
    const lead = acmeLeads(live.sandbox)[5]!;
    await s.client.subscribeResource({ uri: `inbox://acme/leads/${lead}` });
    await s.client.callTool({ name: 'mark_read', arguments: { lead_id: lead } });
    await until('the update of the lead written', () => updates.includes(`inbox://acme/leads/${lead}`));
    await s.client.unsubscribeResource({ uri: `inbox://acme/leads/${lead}` });
  });
});

describe('--watch-seconds 0 turns watching off', () => {
  it('no subscribe capability, and subscribing is refused', async () => {
    const live = await liveApi();
    const s = await startMcp(['--workspace', 'acme', '--watch-seconds', '0'], {
      REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
      REPLY_INBOX_BASE_URL: live.proxy.url,
    });
    try {
      expect(s.client.getServerCapabilities()?.resources?.subscribe).toBeFalsy();
      await expect(s.client.subscribeResource({ uri: 'inbox://acme/leads' })).rejects.toThrow();
    } finally {
      await s.close();
      await live.close();
    }
  });
});

describe('over HTTP: one poll per workspace serves every session, within the read-bucket share', () => {
  let live: Live;
  let bin: HttpBinary;
  const clients: Client[] = [];
  // A small read bucket, so the share binds: 10% of 30 reads a minute is 3 polls a minute.
  const READ_PER_MINUTE = 30;
  beforeAll(async () => {
    live = await liveApi({ bucketLimits: { read: READ_PER_MINUTE } });
    bin = await startHttpBinary(['--base-url', live.proxy.url, '--workspace', 'acme', ...WATCH]);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await bin?.stop();
    await live?.close();
  });
  const connect = async () => {
    const c = await connectHttp(bin.url, `Bearer ${SANDBOX_KEYS.admin}`);
    clients.push(c);
    return c;
  };

  it('with 50 subscriptions over two sessions, the poller stays within its cap, tool calls still answer, and both sessions hear a reply', async () => {
    const [a, b] = [await connect(), await connect()];
    const [heardA, heardB] = [updatesOf(a), updatesOf(b)];
    const leads = acmeLeads(live.sandbox).slice(0, 49);
    const before = polls(live.proxy);
    const started = Date.now();
    await a.subscribeResource({ uri: 'inbox://acme/leads' });
    for (const [i, lead] of leads.entries()) await (i % 2 ? a : b).subscribeResource({ uri: `inbox://acme/leads/${lead}` });
    live.sandbox.control.simulateInboundReply(leads[0]!);
    live.sandbox.control.simulateInboundReply(leads[1]!);
    await until(
      'both sessions hear the replies',
      () => heardA.includes('inbox://acme/leads') && heardB.includes(`inbox://acme/leads/${leads[0]}`) && heardA.includes(`inbox://acme/leads/${leads[1]}`),
    );
    // Long enough for ten polls at one a second, were there no budget.
    await sleep(Math.max(0, 10_000 - (Date.now() - started)));
    const cap = Math.floor(READ_PER_MINUTE * 0.1);
    expect(polls(live.proxy) - before).toBeGreaterThanOrEqual(2);
    expect(polls(live.proxy) - before).toBeLessThanOrEqual(cap);
    const r = await a.callTool({ name: 'get_lead', arguments: { lead_id: leads[2] } });
    expect(r.isError).toBeFalsy();
    for (const [i, lead] of leads.entries()) await (i % 2 ? a : b).unsubscribeResource({ uri: `inbox://acme/leads/${lead}` });
    await a.unsubscribeResource({ uri: 'inbox://acme/leads' });
  });

  // A fresh API with the spec's read bucket and a binary before it, shared by the tests below (a
  // process a test starts ends with that test).
  describe('with the read bucket the spec gives', () => {
    beforeAll(async () => {
      await live.close();
      live = await liveApi();
      await bin.stop();
      bin = await startHttpBinary(['--base-url', live.proxy.url, '--workspace', 'acme', ...WATCH]);
    });

    it('subscribe, a lead replies, the update arrives, the conversation shows it; unsubscribe and polling stops', async () => {
      await liveScenario(live, await connect());
    });

    it('a session that ends stops its watching', async () => {
      const c = await connect();
      await c.subscribeResource({ uri: 'inbox://acme/leads' });
      await until('a poll', () => polls(live.proxy) > 0);
      // The session ends as a client ends it: DELETE /mcp.
      await (c.transport as StreamableHTTPClientTransport).terminateSession();
      await c.close();
      await sleep(300);
      const after = polls(live.proxy);
      await sleep(2_500);
      expect(polls(live.proxy)).toBe(after);
    });
  });
});

describe('the sandbox makes seeded leads reply at an interval (replyEverySeconds, --reply-every-seconds)', () => {
  it('a lead replies each interval, and a client watching the leads hears it', async () => {
    const live = await liveApi({ replyEverySeconds: 1 });
    const s = await startMcp(['--workspace', 'acme', '--log-level', 'warn', ...WATCH], {
      REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin,
      REPLY_INBOX_BASE_URL: live.proxy.url,
    });
    try {
      const updates = updatesOf(s.client);
      const replies = () => [...live.sandbox.store.replies.all()].length;
      const before = replies();
      await s.client.subscribeResource({ uri: 'inbox://acme/leads' });
      await until('two more replies', () => replies() >= before + 2);
      await until('the client hears of them', () => updates.includes('inbox://acme/leads'));
    } finally {
      await s.close();
      await live.close();
    }
  });
});
