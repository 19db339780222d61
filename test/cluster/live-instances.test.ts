import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type HttpBinary, connectHttp, startHttpBinary } from '../../scripts/harness/http.js';
import { type TestRedis, startRedis } from '../../scripts/harness/redis.js';
import { type Relay, startRelay } from '../../scripts/harness/relay.js';
import { sandbox } from '../client/helpers.js';

/**
 * Issue 29, item 4: with --redis, one watch per key serves the listeners of every instance.
 * Instances of one key, each reaching the sandbox through a relay of its own, so the inbox
 * polls (the baseline read, limit=100, and the updated_since polls) are counted per instance:
 * a 2026-07-28 listen on one and a 2025 resources/subscribe on another hear the same replies
 * while one of them polls; killing the poller hands the lease over; SIGTERM ends a listen.
 */

let redis: TestRedis;
let sb: Sandbox;
/** The instances in the order they start, each with the relay it reaches the API through. */
interface Instance {
  bin: HttpBinary;
  api: Relay;
}
const running: Instance[] = [];
const clients: Client[] = [];
const URI = 'inbox://acme/leads';

async function startInstance(): Promise<Instance> {
  const api = await startRelay(sb.baseUrl);
  const bin = await startHttpBinary(['--base-url', api.url, '--redis', redis.url, '--workspace', 'acme', '--watch-seconds', '1']);
  const started = { bin, api };
  running.push(started);
  return started;
}

async function client(url: string, era: 'legacy' | 'modern'): Promise<{ client: Client; heard: string[] }> {
  const c = await connectHttp(url, `Bearer ${sb.keys.admin}`, era);
  clients.push(c);
  const heard: string[] = [];
  c.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
  return { client: c, heard };
}

/** A request of the watch: its baseline read or a poll. */
const isPoll = (r: string) => /^GET \/v1\/workspaces\/acme\/leads\?(.*updated_since=|limit=100$)/.test(r);
/** The watch's requests an instance sent. */
const polls = (api: Relay) => api.requests.filter(isPoll).length;

/** A lead replies every second until every listener named has heard one more update than it had. */
async function replyUntilHeard(...heard: string[][]): Promise<void> {
  const had = heard.map((h) => h.length);
  const leads = sb.store.leads.inGroup('acme');
  const deadline = Date.now() + 90_000;
  for (let i = 0; heard.some((h, k) => h.length <= had[k]!) && Date.now() < deadline; i++) {
    sb.control.simulateInboundReply(leads[i % 10]!.id);
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const h of heard) expect(h.at(-1)).toBe(URI);
  expect(heard.map((h, k) => h.length > had[k]!)).toEqual(heard.map(() => true));
}

beforeAll(async () => {
  redis = await startRedis();
  sb = await sandbox({ leads: 20 });
  // Outside any test: what a test starts ends with it (scripts/harness/processes.ts), and these serve them all.
  for (let i = 0; i < 3; i++) await startInstance();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(running.map((r) => r.bin.stop('SIGKILL')));
  await Promise.all(running.map((r) => r.api.close()));
  await sb?.close();
  await redis?.stop();
});

// Two and three server processes on a loaded 2-core machine: each step waits for replies heard, not for a time.
describe('with --redis, one watch per key serves the listeners of every instance', { timeout: 120_000 }, () => {
  let modern: { client: Client; heard: string[] };
  let legacy: { client: Client; heard: string[] };

  it('a 2026-07-28 listen on one instance and a 2025 subscription on the other hear a reply; only the first instance polls the inbox', async () => {
    const [a, b] = running as [Instance, Instance];
    const started = Date.now();
    modern = await client(a.bin.url, 'modern');
    const listening = await modern.client.listen({ resourceSubscriptions: [URI] });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual([URI]);
    // The first to listen took the workspace's lease and read where the inbox stands.
    expect(a.api.requests.find(isPoll)).toMatch(/limit=100$/);
    legacy = await client(b.bin.url, 'legacy');
    await legacy.client.subscribeResource({ uri: URI });
    await replyUntilHeard(modern.heard, legacy.heard);
    // The subscriber's instance only heard: it read nothing of the inbox.
    expect(polls(b.api), b.api.requests.join('\n')).toBe(0);
    expect(polls(a.api)).toBeGreaterThan(1);
    // And the key's polls keep to its budget: 12 a minute (10% of 120 reads).
    expect(polls(a.api)).toBeLessThanOrEqual(12 * Math.ceil((Date.now() - started) / 60_000));
  });

  it("Redis holds the watch under the key's hash, never the key, and every name expires", async () => {
    const names = await redis.admin.keys('*:watch:*');
    const channels = ((await redis.admin.pubsub('CHANNELS', '*')) as string[]).filter((c) => c.includes(':watch:'));
    expect(names.length).toBeGreaterThan(0);
    expect(channels).toEqual([expect.stringMatching(/^ri:v1:\{[0-9a-f]{24}\}:watch:changes:acme$/)]);
    for (const n of [...names, ...channels]) {
      expect(n).toMatch(/^ri:v1:\{[0-9a-f]{24}\}:watch:/);
      expect(n).not.toContain(sb.keys.admin);
    }
    for (const n of names) expect(await redis.admin.pttl(n)).toBeGreaterThan(0);
  });

  it('the poller is killed: the other instance takes its lease over and its subscriber still hears replies', async () => {
    const [a, b] = running as [Instance, Instance];
    await a.bin.stop('SIGKILL');
    const aPolled = polls(a.api);
    await replyUntilHeard(legacy.heard);
    expect(polls(a.api)).toBe(aPolled);
    // b went on from the mark a left: its first request is a poll, not a new baseline read.
    expect(b.api.requests.find(isPoll)).toContain('updated_since=');
  });

  let late: { client: Client; heard: string[] };
  let listening: Awaited<ReturnType<Client['listen']>>;

  it('a listen on a third instance hears what the lease holder finds, and that instance reads nothing itself', async () => {
    const [, b, c] = running as [Instance, Instance, Instance];
    late = await client(c.bin.url, 'modern');
    listening = await late.client.listen({ resourceSubscriptions: [URI] });
    await replyUntilHeard(late.heard, legacy.heard);
    expect(polls(c.api), c.api.requests.join('\n')).toBe(0);
    expect(polls(b.api)).toBeGreaterThan(0);
  });

  it("Redis restarts empty: the lease is taken again and both instances' listeners go on hearing replies", async () => {
    await redis.restart();
    await replyUntilHeard(late.heard, legacy.heard);
    expect(await redis.admin.keys('*:watch:lease:acme')).toHaveLength(1);
  });

  it('SIGTERM ends a listen stream with its empty result, and the instance exits 0', async () => {
    const [, , c] = running as [Instance, Instance, Instance];
    const exited = c.bin.stop();
    expect(await listening.closed).toBe('graceful');
    expect(await exited).toBe(0);
  });
});
