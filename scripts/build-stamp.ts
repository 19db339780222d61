import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * When dist/ was last built completely: the last step of `npm run build` (this script) writes
 * the stamp, and the tests that run dist/ rebuild only when a source is newer than it.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUILD_STAMP = join(ROOT, 'dist', '.build-stamp');

/** What the build reads: a change to any of these makes dist/ stale. */
export const BUILD_INPUTS = [
  'src',
  'tools',
  'desk',
  'scripts/build-bin.ts',
  'scripts/third-party-notices.ts',
  'scripts/vendored-licences',
  'scripts/build-desk.ts',
  'scripts/desk/page',
  'scripts/build-stamp.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The input newer than the stamp, or null when dist/ is up to date. */
export function staleBecause(): string | null {
  if (!existsSync(BUILD_STAMP)) return 'dist/ was never built completely (no dist/.build-stamp)';
  const built = statSync(BUILD_STAMP).mtimeMs;
  for (const input of BUILD_INPUTS) {
    const path = join(ROOT, input);
    if (existsSync(path) && newestMtime(path) > built) return `${input} changed since the last build`;
  }
  return null;
}

/** dist/ is complete as of now. */
export function writeStamp(): void {
  writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeStamp();
