import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { initializeWith, raw, sessionAnswers, startHttpBinary } from '../harness/http.js';
import { TEST_NOW } from '../harness/sandbox.js';

/* Item 2 of the second attack: a burst of initializes with one key must not take every session. */

const countOf = (list: string[]) => {
  const counts: Record<string, number> = {};
  for (const x of list) counts[x] = (counts[x] ?? 0) + 1;
  return counts;
};

/**
 * `burst` initializes at once with one key over HTTP, the server's limits at their defaults:
 * the answers, the limit that refused each (error.data.limit) and the Retry-After range, how
 * many 200s hold a session that still answers a ping, the sessions held, and what another key gets.
 */
export async function burstRun(burst = 150) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 20 });
  const bin = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const all = await Promise.all(Array.from({ length: burst }, () => initializeWith(bin.url, SANDBOX_KEYS.admin)));
    const refused = all.filter((a) => a.status !== 200);
    const waits = refused.flatMap((a) => (a.retryAfter === undefined ? [] : [a.retryAfter]));
    const held = JSON.parse((await raw(bin.url.replace(/\/mcp$/, '/healthz'), { method: 'GET' })).body) as { sessions: number };
    const opened = all.flatMap((a) => (a.status === 200 && a.sessionId ? [a.sessionId] : []));
    const alive = (await Promise.all(opened.map((sid) => sessionAnswers(bin.url, SANDBOX_KEYS.admin, sid)))).filter(Boolean).length;
    const other = await initializeWith(bin.url, SANDBOX_KEYS.rep);
    return {
      burst,
      answers: countOf(all.map((a) => String(a.status))),
      got_200: opened.length,
      got_200_session_answers: alive,
      got_200_session_gone: opened.length - alive,
      refused_by: countOf(refused.map((a) => `${a.status} ${a.limit ?? 'no limit named'}`)),
      retry_after_s: waits.length > 0 ? { min: Math.min(...waits), max: Math.max(...waits) } : null,
      sessions_held: held.sessions,
      other_key_initialize: String(other.status),
      other_key_gets_in: other.status === 200,
    };
  } finally {
    await bin.stop('SIGKILL');
    await sandbox.close();
  }
}
