import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// This file names the paths it looks for without spelling them, or it would find itself.
const up = (n: number) => `..${'/'}`.repeat(n);
const machine = (dir: string) => `/${dir}/`;

/**
 * A relative path that starts here (not inside a longer path such as `/../me` of a URL)
 * and climbs with `../`; it names something outside the repository when, resolved from
 * the file's own folder, it leaves the root.
 */
const CLIMB = /(?<![\w./%-])((?:\.\.\/)+)([\w.-]*)/g;
/** Absolute locations of a machine rather than of the project: home folders, temp and work areas. */
const MACHINE = /(?<![\w.~:-])\/(?:work|tmp|home|root|Users|mnt|private\/var)\/|\b[A-Z]:\\\\?Users\\/g;
/** A shell path relative to the working directory, which is the repository root in every script. */
const FROM_CWD = /(?:\$\(pwd\)|\$PWD|process\.cwd\(\))\/((?:\.\.\/)+)/g;

/**
 * The one place the repository names its surroundings on purpose: the team's CI script
 * hands the spec beside the clone to the endpoint cross-check, only when it is there.
 */
const ALLOWED: Record<string, string> = { '.ci/run': `$(pwd)/${up(1)}shared/spec/reply-inbox-api-v1.md` };

/** Every path outside the repository that `text` (the file at `file`, relative to the root) names. */
function outsidePaths(file: string, text: string): string[] {
  const found: string[] = [];
  const dir = posix.dirname(file);
  // Built code (src/, tools/) runs from dist/, one level deeper: a path may be meant from there.
  const homes = /^(src|tools)\//.test(file) ? [dir, posix.join('dist', dir)] : [dir];
  const escapes = (from: string, climb: string) => posix.normalize(posix.join(from, climb)).startsWith('..');
  for (const m of text.matchAll(CLIMB)) if (homes.every((h) => escapes(h, m[1]!))) found.push(m[0]);
  for (const m of text.matchAll(FROM_CWD)) if (escapes('.', m[1]!)) found.push(m[0]);
  for (const m of text.matchAll(MACHINE)) found.push(m[0]);
  return found;
}

describe('a clone is the whole project: no tracked file names a path outside the repository', () => {
  it('the check finds paths that climb out of the repository or name a machine location, and only those', () => {
    expect(outsidePaths('test/unit/endpoints.test.ts', `readFileSync(new URL('${up(3)}shared/spec/x.md', import.meta.url))`)).toEqual([`${up(3)}shared`]);
    expect(outsidePaths('README.md', `see ${up(1)}shared/SANDBOX.md`)).toEqual([`${up(1)}shared`]);
    expect(outsidePaths('.ci/run', `spec="$(pwd)/${up(1)}shared/spec.md"`)).toEqual([`$(pwd)/${up(1)}`]);
    const windows = ['C:', 'Users', ''].join('\\');
    expect(outsidePaths('docs/x.md', `built in ${machine('work')}main and ${machine('tmp')}out, or ${windows}me`)).toEqual([
      machine('work'),
      machine('tmp'),
      windows,
    ]);
    expect(outsidePaths('src/mcp/transport/http/auth.ts', `import { X } from '${up(3)}spec/index.js';`)).toEqual([]);
    expect(outsidePaths('src/version.ts', `new URL('${up(2)}package.json', import.meta.url)`)).toEqual([]);
    expect(outsidePaths('src/version.ts', `new URL('${up(3)}package.json', import.meta.url)`)).toEqual([`${up(3)}package.json`]);
    expect(outsidePaths('docs/x.md', `[the README](${up(1)}README.md), GET /v1/leads/{lead_id}, https://example.com${machine('home')}x`)).toEqual([]);
    expect(outsidePaths('test/reliability/helpers.ts', `['${up(1)}', '/${up(3)}me', '%2e%2e%2f']`)).toEqual([]);
  });

  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

  it('every relative link of the documents leads to a file of the repository', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      for (const m of readFileSync(`${ROOT}/${file}`, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(posix.join(ROOT, posix.dirname(file), target))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no tracked file names one', () => {
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(`${ROOT}/${file}`, 'utf8');
      } catch {
        continue; // listed but not on disk (a deletion not yet committed)
      }
      if (text.includes('\0')) continue;
      const allowed = ALLOWED[file];
      for (const p of outsidePaths(file, allowed ? text.replace(allowed, '') : text)) offenders.push(`${file}: ${p}`);
    }
    expect(offenders).toEqual([]);
  });
});
