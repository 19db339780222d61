/** Scale of the sandbox: p50 of a 200-lead page at 1k, 10k and 100k leads; the cost must not grow with the workspace. */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { type Section, median, percentile, round, sandbox } from './lib.js';

const PAGES = 200;

async function measure(leads: number) {
  const t0 = performance.now();
  const sb = await sandbox({ leads, rateLimits: false });
  const startMs = performance.now() - t0;
  const dispatcher = new Agent({ connections: 1 });
  const headers = { authorization: `Bearer ${sb.keys.admin}` };
  const get = async (query: string) => {
    const t = performance.now();
    const r = await request(`${sb.baseUrl}/v1/workspaces/acme/leads?${query}`, { headers, dispatcher });
    const body = (await r.body.json()) as { next_cursor: string | null };
    return { ms: performance.now() - t, body };
  };
  for (let i = 0; i < 20; i++) await get('limit=200');
  const first: number[] = [];
  for (let i = 0; i < PAGES; i++) first.push((await get('limit=200')).ms);
  const walk: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < PAGES; i++) {
    const r = await get(`limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    walk.push(r.ms);
    cursor = r.body.next_cursor;
    if (!cursor) break;
  }
  await dispatcher.close();
  await sb.close();
  return [leads, round(startMs, 0), round(median(first)), round(percentile(first, 95)), round(median(walk)), walk.length];
}

export async function scale(sizes = [1_000, 10_000, 100_000]): Promise<Section[]> {
  const rows = [];
  for (const n of sizes) rows.push(await measure(n));
  return [
    {
      title: 'Scale of the sandbox: a 200-lead page',
      note: 'Keyset cursors make a page cost the same however large the workspace: the first page and pages deep in a cursor walk.',
      columns: ['leads', 'sandbox start (ms)', 'first page p50 (ms)', 'p95 (ms)', 'cursor walk p50 (ms)', 'pages walked'],
      rows,
    },
  ];
}
