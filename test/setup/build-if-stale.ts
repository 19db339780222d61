import { spawnSync } from 'node:child_process';
import { staleBecause } from '../../scripts/build-stamp.js';

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
  const bin = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-bin.ts'], { encoding: 'utf8' });
  if (bin.error) throw bin.error;
  if (bin.status !== 0) throw new Error(`bundling the server's binary failed:\n${bin.stderr}`);
}
