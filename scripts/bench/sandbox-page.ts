/**
 * p50 time of a 200-lead page against sandboxes of growing size: the cost of a page must
 * not grow with the workspace. Usage: node --import tsx scripts/bench/sandbox-page.ts [sizes…]
 */
import { performance } from 'node:perf_hooks';
import { cpus } from 'node:os';
import { Agent, request } from 'undici';
import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [1_000, 10_000, 100_000];
const PAGES = 200;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function measure(leads: number) {
  const t0 = performance.now();
  const sandbox = await startSandbox({ port: 0, leads, rateLimits: false, logLevel: 'silent', now: '2026-11-20T12:00:00Z' });
  const startMs = performance.now() - t0;
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  const headers = { authorization: `Bearer ${SANDBOX_KEYS.admin}` };
  const get = async (query: string) => {
    const t = performance.now();
    const r = await request(`${sandbox.baseUrl}/v1/workspaces/acme/leads?${query}`, { headers, dispatcher });
    const body = (await r.body.json()) as { data: unknown[]; next_cursor: string | null };
    return { ms: performance.now() - t, body };
  };
  for (let i = 0; i < 20; i++) await get('limit=200'); // warm up
  const first: number[] = [];
  for (let i = 0; i < PAGES; i++) first.push((await get('limit=200')).ms);
  // Deep pages: walk the cursor as far as the workspace allows.
  const deep: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < PAGES; i++) {
    const r = await get(`limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    deep.push(r.ms);
    cursor = r.body.next_cursor;
    if (!cursor) break;
  }
  await dispatcher.close();
  await sandbox.close();
  return { leads, startMs, firstP50: pct(first, 50), firstP95: pct(first, 95), deepP50: pct(deep, 50), deepPages: deep.length };
}

const rows = [];
for (const n of SIZES) rows.push(await measure(n));
process.stdout.write(`machine: ${cpus().length} cores, Node ${process.version}\n`);
process.stdout.write('| leads | sandbox start (ms) | 200-lead page p50 (ms) | p95 (ms) | cursor walk p50 (ms) | pages walked |\n|---:|---:|---:|---:|---:|---:|\n');
for (const r of rows) {
  process.stdout.write(`| ${r.leads} | ${r.startMs.toFixed(0)} | ${r.firstP50.toFixed(2)} | ${r.firstP95.toFixed(2)} | ${r.deepP50.toFixed(2)} | ${r.deepPages} |\n`);
}
