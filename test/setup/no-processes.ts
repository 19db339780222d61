import { createRequire, syncBuiltinESMExports } from 'node:module';

/**
 * The fast lane's setup (unit, contract, client, tools): these tests start no process, so
 * they need no process tracking. Any way of starting one fails the test at once, naming the
 * lane a test that needs a child belongs in (one whose setup ends what it leaves running).
 */
const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(`child_process.${name} in the fast lane: a test that starts a process belongs in e2e, reliability, cluster or ship`);
  };
}
// Imports of node:child_process (named or namespace) see the replacements too.
syncBuiltinESMExports();
