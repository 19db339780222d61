import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAGS, TOOLSETS } from '../../src/cli/config.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { ROOT } from './helpers.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** Docs that other issues are writing now; the README links them ahead of their landing. */

/** The body of the first fenced code block after a heading. */
function firstBlockAfter(heading: string): string {
  const at = readme.indexOf(`\n## ${heading}\n`);
  expect(at, `README has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const m = /```\w*\n([\s\S]*?)```/.exec(readme.slice(at));
  return m?.[1] ?? '';
}

describe('README quick start: two commands, one runs the server on the embedded sandbox, one runs the tests', () => {
  it('the block is exactly `npm install && npm run demo` and `npm test`, each a script of package.json', () => {
    const commands = firstBlockAfter('Quick start')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm install && npm run demo', 'npm test']);
    expect(pkg.scripts.demo).toContain('scripts/demo.ts');
    expect(pkg.scripts.test).toBeDefined();
  });

  it("CI runs the README's test command", () => {
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('every `npm run X` the README names is a script', () => {
    const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(3);
    for (const n of named) expect(pkg.scripts[n], `npm run ${n}`).toBeDefined();
  });
});

describe('README: every flag and env var in one table', () => {
  const rows = readme.split('\n').filter((l) => l.startsWith('| `--'));
  it.each(Object.entries(FLAGS))('--%s with its env twin', (flag, f) => {
    const row = rows.find((r) => r.startsWith(`| \`--${flag}\``) || r.startsWith(`| \`--${flag} `));
    expect(row, `a row for --${flag}`).toBeDefined();
    expect(row).toContain(`\`${f.env}`);
  });

  it('and no row for a flag the binary does not take', () => {
    const flags = rows.map((r) => /^\| `--([a-z-]+)/.exec(r)?.[1]);
    expect(flags.filter((f) => !(f! in FLAGS))).toEqual([]);
  });
});

describe('README: toolsets, tools and their reference', () => {
  it('the toolset table names every tool once, under its toolset', () => {
    for (const ts of TOOLSETS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| ${ts} |`));
      expect(row, `a row for ${ts}`).toBeDefined();
      const names = [...row!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
      expect(names).toEqual(ALL_TOOLS.filter((t) => t.toolset === ts).map((t) => t.name));
    }
  });

  it('every relative link points at a file of the repository', () => {
    const links = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links).toEqual(expect.arrayContaining(['docs/tools.md', 'manifest.json', 'docs/client.md']));
    for (const l of links) expect(existsSync(join(ROOT, l)), l).toBe(true);
  });

  it('says what it never does', () => {
    expect(readme).toContain('**It never sends email.**');
  });
});
