/**
 * Watch: the read-bucket share a live inbox costs. Four server processes, each with its own
 * sandbox key (so its own buckets), subscribe 1 or 50 times to acme's leads at a 1-second and
 * the default 30-second --watch-seconds; the reads each key spent in one whole rate window
 * of a minute, as the sandbox counted them, over its read bucket.
 */
import { RATE_LIMITS } from '../../src/api/enums.js';
import { type Section, mcpSession, round, sandbox, windowStart } from './lib.js';

const MINUTE_MS = 60_000;
const RUNS = [
  { key: 'admin', id: 'key_admin001', subscribers: 1, seconds: 1 },
  { key: 'rep', id: 'key_repben01', subscribers: 50, seconds: 1 },
  { key: 'readonly', id: 'key_readonly', subscribers: 1, seconds: 30 },
  { key: 'demoted', id: 'key_demoted1', subscribers: 50, seconds: 30 },
] as const;

export async function watch(): Promise<Section[]> {
  const sb = await sandbox();
  const leads = sb.store
    .sortedLeads('acme')
    .slice(0, 49)
    .map((l) => l.id);
  const sessions = await Promise.all(
    RUNS.map(async (r) => {
      const s = await mcpSession(sb, { key: sb.keys[r.key], args: ['--watch-seconds', String(r.seconds), '--scope-refresh-seconds', '0'] });
      const uris = ['inbox://acme/leads', ...leads.map((l) => `inbox://acme/leads/${l}`)].slice(0, r.subscribers);
      for (const uri of uris) await s.client.subscribeResource({ uri });
      return s;
    }),
  );
  // One whole window of the sandbox's per-minute buckets, with nothing but polling in it.
  await windowStart(MINUTE_MS);
  await new Promise((r) => setTimeout(r, MINUTE_MS - 500));
  const spent = RUNS.map((r) => {
    const st = sb.limits.state(r.id, 'read');
    return st.limit - st.remaining;
  });
  await Promise.all(sessions.map((s) => s.close()));
  await sb.close();
  return [
    {
      title: 'Watching the inbox: read-bucket share',
      note: `Reads a key spent in one minute on polling for subscriptions to acme's leads (the leads list and up to 49 leads), over its read bucket of ${RATE_LIMITS.read}. One poll serves every subscriber; the cap is 10% of the bucket (${Math.floor(RATE_LIMITS.read / 10)} a minute).`,
      columns: ['subscribers', '--watch-seconds', 'reads in the minute', 'share of the read bucket (%)', 'cap (%)'],
      rows: RUNS.map((r, i) => [r.subscribers, r.seconds, spent[i]!, round((100 * spent[i]!) / RATE_LIMITS.read, 1), 10]),
    },
  ];
}
