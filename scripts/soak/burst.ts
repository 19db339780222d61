import { SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { INITIALIZE, mcpHeaders, raw, startHttpBinary } from '../harness/http.js';
import { TEST_NOW } from '../harness/sandbox.js';

/* Item 2 of the second attack: a burst of initializes with one key must not take every session. */

const statusOf = (url: string, key: string) =>
  raw(url, { headers: mcpHeaders({ authorization: `Bearer ${key}` }), body: INITIALIZE }).then(
    (r) => String(r.status),
    () => 'error',
  );

/** `burst` initializes at once with one key over HTTP: how many got 200, the sessions held, and what another key gets after. */
export async function burstRun(burst = 150) {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', leads: 20 });
  const bin = await startHttpBinary(['--base-url', sandbox.baseUrl]);
  try {
    const answers: Record<string, number> = {};
    const all = await Promise.all(Array.from({ length: burst }, () => statusOf(bin.url, SANDBOX_KEYS.admin)));
    for (const s of all) answers[s] = (answers[s] ?? 0) + 1;
    const held = JSON.parse((await raw(bin.url.replace(/\/mcp$/, '/healthz'), { method: 'GET' })).body) as { sessions: number };
    const other = await statusOf(bin.url, SANDBOX_KEYS.rep);
    return { burst, answers, got_200: answers['200'] ?? 0, sessions_held: held.sessions, other_key_initialize: other, other_key_gets_in: other === '200' };
  } finally {
    await bin.stop('SIGKILL');
    await sandbox.close();
  }
}
