import { spawnSync } from 'node:child_process';
import { staleBecause, writeStamp } from '../../scripts/build-stamp.js';

/** The steps of `npm run build` after tsc, each a script that must succeed. */
const STEPS = [
  ['scripts/build-bin.ts', "bundling the server's binary"],
  ['scripts/build-desk.ts', 'building the reply desk'],
] as const;

/**
 * The global setup of the projects that run dist/ (e2e, reliability, cluster, ship, registry):
 * build as `npm run build` does, but only when a source is newer than the last complete build.
 * Type errors do not stop the emit and are reported by `npm run typecheck`, CI's own step;
 * a failed bundle stops the run. Unit, contract and client tests run the sources and never
 * wait for this.
 */
export default function setup(): void {
  const why = staleBecause();
  if (why === null) return;
  process.stderr.write(`Building dist/ for the tests that run it: ${why}.\n`);
  const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8' });
  if (tsc.error) throw tsc.error;
  for (const [script, what] of STEPS) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`${what} failed:\n${r.stderr}`);
  }
  writeStamp();
}
