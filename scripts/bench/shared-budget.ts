/**
 * Shared budget: two server processes over HTTP spending one key, with and without Redis,
 * past the read bucket. Served per window, share of the bucket, 429s at the sandbox, peak
 * in flight. Skipped with a loud line when redis-server is missing.
 */
import { spawnSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttpBinary } from '../harness/http.js';
import { startRedis } from '../harness/redis.js';
import { RATE_LIMITS } from '../../src/api/enums.js';
import { type Section, sandbox } from './lib.js';

const WINDOW_MS = 2000;
const WINDOWS = 4;
const SESSIONS_PER_INSTANCE = 4;
const KEY_ID = 'key_admin001';

async function run(redisUrl: string | null) {
  const sb = await sandbox({ rateWindowMs: WINDOW_MS });
  const args = ['--base-url', sb.baseUrl, ...(redisUrl ? ['--redis', redisUrl] : [])];
  const instances = await Promise.all([startHttpBinary(args), startHttpBinary(args)]);
  const sessions: Client[] = [];
  for (const inst of instances) for (let i = 0; i < SESSIONS_PER_INSTANCE; i++) sessions.push(await connectHttp(inst.url, `Bearer ${sb.keys.admin}`));
  // Start on a window boundary and stop after WINDOWS whole windows.
  const start = (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS;
  const end = start + WINDOWS * WINDOW_MS;
  await new Promise((r) => setTimeout(r, start - Date.now()));
  const done: number[] = [];
  let failed = 0;
  await Promise.all(
    sessions.map(async (c) => {
      while (Date.now() < end) {
        const r = await c.callTool({ name: 'list_members', arguments: { workspace: 'acme' } }).catch(() => ({ isError: true }));
        if (r.isError) failed++;
        else if (Date.now() < end) done.push(Date.now());
      }
    }),
  );
  const perWindow = Array.from({ length: WINDOWS }, (_, w) => done.filter((t) => t >= start + w * WINDOW_MS && t < start + (w + 1) * WINDOW_MS).length);
  const refused = sb.limits.refusals(KEY_ID);
  const peak = sb.limits.peakInFlight(KEY_ID);
  for (const c of sessions) await c.close().catch(() => undefined);
  await Promise.all(instances.map((i) => i.stop()));
  await sb.close();
  const served = perWindow.reduce((a, b) => a + b, 0);
  return { perWindow, share: served / (WINDOWS * RATE_LIMITS.read), refused, peak, failed };
}

export async function sharedBudget(): Promise<Section[]> {
  const title = 'Shared budget: two servers, one key, one Redis';
  if (spawnSync('redis-server', ['--version']).error) {
    process.stderr.write('\nSKIPPED shared budget: redis-server is not installed (apt-get install -y redis-server).\n');
    return [
      {
        title,
        note: 'Skipped.',
        columns: ['measure', 'value'],
        rows: [],
        warnings: ['SKIPPED: redis-server is not installed on this machine (apt-get install -y redis-server).'],
      },
    ];
  }
  const redis = await startRedis();
  try {
    const rows = [];
    for (const [label, url] of [
      ['2 instances, --redis', redis.url],
      ['2 instances, no Redis', null],
    ] as const) {
      const r = await run(url);
      rows.push([label, r.perWindow.join(', '), `${(r.share * 100).toFixed(1)}%`, r.refused.rate_limited, r.refused.too_many_concurrent, r.peak, r.failed]);
    }
    return [
      {
        title,
        note: `Two HTTP server processes, ${SESSIONS_PER_INSTANCE} MCP sessions each, calling list_members as fast as answered for ${WINDOWS} whole windows of ${WINDOW_MS} ms (read bucket ${RATE_LIMITS.read} per window) with one key. With Redis the instances share the key's buckets and its 4 in-flight slots; without it each believes it has the whole budget.`,
        columns: ['run', 'reads served per window', 'share of the bucket', '429 rate_limited', '429 too_many_concurrent', 'peak in flight', 'tool errors'],
        rows,
      },
    ];
  } finally {
    await redis.stop();
  }
}
