import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * Issue 30 item 11: `npm install` on Node 20 warned `EBADENGINE … content-type@3.1.1 required
 * node >=22` (a development dependency's, through the conformance suite's @octokit/request).
 * npm warns for each locked package whose `engines.node` the running Node does not satisfy:
 * none may exclude the lowest Node the package supports, nor the one running the tests.
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

type Version = [number, number, number];

/** A comparator's version: missing parts and x are 0; `parts` says how many were given. */
function versionOf(s: string): { v: Version; parts: number } {
  const given = s
    .replace(/^v/, '')
    .split('.')
    .filter((p) => p !== '' && p !== 'x' && p !== 'X' && p !== '*');
  const n = given.map(Number);
  return { v: [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0], parts: given.length };
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The next version past every one a partial version names: 20 → 21.0.0, 20.19 → 20.20.0. */
function past(v: Version, parts: number): Version {
  if (parts <= 1) return [v[0] + 1, 0, 0];
  if (parts === 2) return [v[0], v[1] + 1, 0];
  return [v[0], v[1], v[2] + 1];
}

/** Whether one comparator (`>=20`, `^20.19.0`, `~1.2`, `10.x`, `*`) admits the version. */
function admits(comparator: string, at: Version): boolean {
  const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!;
  const op = m[1] ?? '=';
  const { v, parts } = versionOf(m[2]!);
  if (parts === 0) return true;
  const c = compare(at, v);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return compare(at, past(v, parts)) >= 0;
    case '<=':
      return compare(at, past(v, parts)) < 0;
    case '<':
      return c < 0;
    case '^':
      return c >= 0 && compare(at, v[0] > 0 ? [v[0] + 1, 0, 0] : past(v, Math.min(parts, 2))) < 0;
    case '~':
      return c >= 0 && compare(at, past(v, Math.min(parts, 2))) < 0;
    default:
      return c >= 0 && compare(at, past(v, parts)) < 0;
  }
}

/** npm's range grammar as engines use it: sets joined by ||, each of comparators separated by spaces. */
function satisfies(range: string, version: string): boolean {
  const at = versionOf(version).v;
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((c) => admits(c, at)),
  );
}

const lowest = versionOf(/^>=\s*([\d.]+)$/.exec(pkg.engines.node)![1]!).v.join('.');
const nodeRanges = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .map(([path, p]) => ({ path, range: Array.isArray(p.engines) ? undefined : p.engines?.node }))
  .filter((p): p is { path: string; range: string } => typeof p.range === 'string');

describe('the range check reads engines as npm does', () => {
  it.each([
    ['>=22', '20.19.0', false],
    ['>=22', '22.1.0', true],
    ['>= 20', '20.19.0', true],
    ['^20.19.0 || >=22.12.0', '20.19.0', true],
    ['^20.19.0 || >=22.12.0', '22.11.0', false],
    ['^20.0.0 || ^22.0.0 || >=24.0.0', '23.1.0', false],
    ['>= 10.x', '20.19.0', true],
    ['^10 || ^12 || ^13.7 || ^14 || >=15.0.1', '20.19.0', true],
    ['^14.17.0 || ^16.13.0', '20.19.0', false],
    ['>=20.18.1', '20.18.0', false],
    ['~1.2', '1.3.0', false],
  ])('%s admits %s: %s', (range, version, ok) => {
    expect(satisfies(range, version)).toBe(ok);
  });
});

describe(`no locked package's engines exclude Node ${lowest} (package.json: ${pkg.engines.node}) or the Node running this test`, () => {
  it('the lock records engines for many packages (the check reads something)', () => {
    expect(nodeRanges.length).toBeGreaterThan(100);
  });

  it.each([lowest, process.versions.node])('Node %s', (version) => {
    expect(nodeRanges.filter((p) => !satisfies(p.range, version)).map((p) => `${p.path} requires node ${p.range}`)).toEqual([]);
  });
});
