import { readFileSync } from 'node:fs';

/**
 * The package version, read once from package.json: the nearest one above this module that is
 * ours (above src/ run from source, dist/src/ built, dist/src/cli/ in the bundled binary).
 */
function readVersion(): string {
  let dir = new URL('.', import.meta.url);
  for (let up = 0; up < 4; up++) {
    dir = new URL('..', dir);
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'reply-inbox-mcp' && pkg.version) return pkg.version;
    } catch {
      // not here: one level up
    }
  }
  return '0.0.0';
}
export const VERSION = readVersion();
