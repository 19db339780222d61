import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../tools/index.js';
import { ROOT, run, startServer } from './helpers.js';

/**
 * The npm package as a stranger gets it: `npm pack`, then `npm install <tarball>` in an
 * empty project (its dependencies come from the registry or npm's cache: the slow part,
 * 10-40 s), then the installed `reply-inbox-mcp` binary. --ignore-scripts on pack because
 * the global setup already built dist/ (pack would otherwise run `prepare`, the build).
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
const scratch = mkdtempSync(join(tmpdir(), 'pack-test-'));
const app = join(scratch, 'app');
let tarball = '';
let listed: { path: string; size: number }[] = [];

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch]);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string; size: number }[] }[];
  tarball = join(scratch, info[0]!.filename);
  listed = info[0]!.files;
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-test-app', version: '1.0.0', private: true }));
  const inst = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, timeoutMs: 120_000 });
  if (inst.code !== 0) throw new Error(`npm install of the tarball failed: ${inst.stderr}`);
}, 150_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm pack: `files` keeps the tarball lean', () => {
  it('holds the built server, the manifest, the README and the licence; no tests, scripts, sources or source maps', () => {
    const paths = listed.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'manifest.json', 'dist/src/cli/mcp.js', 'dist/src/cli/sandbox.js']));
    expect(paths.filter((p) => !/^(dist\/(src|tools)\/|package\.json$|README\.md$|LICENSE$|manifest\.json$)/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.map') || (p.endsWith('.ts') && !p.endsWith('.d.ts')))).toEqual([]);
    expect(statSync(tarball).size).toBeLessThan(1024 * 1024);
  });
});

describe('installing the tarball gives a working reply-inbox-mcp', () => {
  it('`reply-inbox-mcp --sandbox` from the install answers initialize and tools/list with every tool', async () => {
    const bin = join(app, 'node_modules', '.bin', 'reply-inbox-mcp');
    const s = await startServer(bin, ['--sandbox'], { REPLY_INBOX_LOG_LEVEL: 'warn' }, app);
    try {
      expect(s.client.getServerVersion()).toMatchObject({ name: pkg.name, version: pkg.version });
      expect(s.tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
      const me = await s.client.callTool({ name: 'get_me', arguments: {} });
      expect(me.isError).toBeFalsy();
    } finally {
      await s.close();
    }
  });

  it('installed both binaries of package.json', () => {
    for (const name of Object.keys(pkg.bin)) expect(statSync(join(app, 'node_modules', '.bin', name)).isFile()).toBe(true);
  });
});
