import { spawnSync } from 'node:child_process';
import { staleBecause } from './build-stamp.js';

/**
 * `npm run demo`, `npm run mcpb` and `npm run bench` start with this: `npm run build` only when a source is
 * newer than the last complete build (or dist/ was never built: `npm install` builds nothing,
 * the build runs in `prepack`), so `npm install && npm run demo` builds once. What it says goes to stderr.
 */
const why = staleBecause();
if (why !== null) {
  process.stderr.write(`Building: ${why}.\n`);
  const r = spawnSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 2, 2] });
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}
