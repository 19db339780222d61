import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { CLOCK_START, client, sandboxOn, type Watched, WindowTurner } from './helpers.js';

const WINDOW = 1000;
const LIMITS = { read: 8, thread: 3 };
let sb: Sandbox;
let proxy: Server;
let proxyUrl: string;
/** The sandbox's windows and the client's limiter run on one clock, turned when the limiter waits for a refill. */
const clock = new ManualClock(CLOCK_START);

/** A client through the proxy on that clock, which learnt the limits (GET /v1/me) and starts a window with every bucket full. */
async function fresh(opts: Parameters<typeof client>[1] = {}): Promise<Watched & { turner: WindowTurner }> {
  const w = client(sb, { baseUrl: proxyUrl, clock, ...opts });
  const turner = new WindowTurner(w, clock, WINDOW);
  turner.next();
  return { ...w, turner };
}

/** A server like the sandbox but without its x-ratelimit-bucket extra header. */
beforeAll(async () => {
  sb = await sandboxOn(clock, { rateWindowMs: WINDOW, bucketLimits: LIMITS });
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection')) as Record<string, string>;
    const r = await fetch(sb.baseUrl + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (k !== 'x-ratelimit-bucket' && k !== 'content-length' && k !== 'transfer-encoding') out[k] = v;
    });
    res.writeHead(r.status, out);
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((ok) => proxy.close(ok));
  await sb.close();
});

describe('Limits: the client also works against a server that does not send x-ratelimit-bucket', () => {
  it('a one-bucket call is unambiguous: a burst of 2× the read bucket gives zero 429', async () => {
    const w = await fresh();
    const me = await w.client.me();
    expect(me.headers['x-ratelimit-bucket']).toBeUndefined();
    expect(w.client.limiterState().buckets.find((b) => b.bucket === 'read')).toMatchObject({ limit: LIMITS.read, limitSource: 'header' });
    w.turner.next();
    const results = await w.turner.settle(
      Promise.all(Array.from({ length: 2 * LIMITS.read }, () => w.client.call('list_members', { path: { workspace: 'acme' } }))),
    );
    expect(results).toHaveLength(2 * LIMITS.read);
    expect(w.rejected().rate_limited).toBe(0);
    await w.client.close();
  });

  it('a two-bucket call (read + thread) is matched by its limit: a burst of conversations gives zero 429', async () => {
    const w = await fresh({ limits: LIMITS });
    await w.client.me();
    w.turner.next();
    const leads = sb.store.leads.inGroup('acme').slice(0, 2 * LIMITS.thread);
    const results = await w.turner.settle(Promise.all(leads.map((l) => w.client.call('get_conversation', { path: { workspace: 'acme', lead_id: l.id } }))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(w.rejected().rate_limited).toBe(0);
    await w.client.close();
  });

  it('without any hint, a 429 on a two-bucket call drains both buckets and the call still completes', async () => {
    // No caps: the client believes the spec's 30 threads, the headers say 3 and name no bucket.
    const w = await fresh({ discoverLimits: false });
    const leads = sb.store.leads.inGroup('acme').slice(0, LIMITS.thread + 1);
    // The 429 and the pause after it are the client's own business: time moves a tenth of a window whenever nothing else does.
    const results = await clock.settle(
      Promise.all(leads.map((l) => w.client.call('get_conversation', { path: { workspace: 'acme', lead_id: l.id } }))),
      WINDOW / 10,
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(w.events.some((e) => e.type === 'rate_limited' && e.bucket === null)).toBe(true);
    await w.client.close();
  });
});
