import { spawnSync } from 'node:child_process';

/**
 * e2e tests spawn the built binaries: emit dist once before any test file runs. Type
 * errors do not stop the emit and are reported by `npm run typecheck`, CI's own step.
 */
export default function setup(): void {
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8' });
  if (r.error) throw r.error;
}
