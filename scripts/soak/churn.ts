import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { TEST_NOW } from '../harness/sandbox.js';
import { startRelay, startSession } from '../harness/reliability/helpers.js';

/* Item 7 of the second attack: subscribe/unsubscribe churn must stay within the read budget, and subscriptions are capped. */

const LIST_LEADS = /^\/v1\/workspaces\/acme\/leads(\?|$)/;

/** Subscribe/unsubscribe rounds on the leads resource for `ms`, the list_leads requests the API saw, then subscriptions until one is refused. */
export async function churnRun(ms = 10_000, cap = 101) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 150 });
  const relay = await startRelay(sandbox.baseUrl);
  const s = await startSession(['--workspace', 'acme', '--log-level', 'warn'], { REPLY_INBOX_API_KEY: SANDBOX_KEYS.admin, REPLY_INBOX_BASE_URL: relay.url });
  try {
    const uri = 'inbox://acme/leads';
    const before = relay.seen.length;
    const started = Date.now();
    let rounds = 0;
    let refusedRounds = 0;
    while (Date.now() - started < ms) {
      rounds++;
      try {
        await s.client.subscribeResource({ uri });
        await s.client.unsubscribeResource({ uri });
      } catch {
        refusedRounds++;
      }
    }
    const seen = relay.seen.slice(before);
    const listLeads = seen.filter((r) => r.method === 'GET' && LIST_LEADS.test(r.url)).length;
    const leads = sandbox.store.sortedLeads('acme').slice(0, cap);
    let accepted = 0;
    let refusedAt: number | null = null;
    for (const [i, lead] of leads.entries()) {
      try {
        await s.client.subscribeResource({ uri: `inbox://acme/leads/${lead.id}` });
        accepted++;
      } catch {
        refusedAt ??= i + 1;
      }
    }
    return {
      churn_ms: ms,
      rounds,
      refused_rounds: refusedRounds,
      list_leads_seen: listLeads,
      api_requests_seen: seen.length,
      subscriptions_tried: leads.length,
      subscriptions_accepted: accepted,
      first_refused: refusedAt,
      alive: s.alive(),
    };
  } finally {
    await s.close();
    await relay.close();
    await sandbox.close();
  }
}
