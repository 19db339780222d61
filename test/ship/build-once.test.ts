import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_STAMP, staleBecause } from '../../scripts/build-stamp.js';
import { ROOT, run } from './helpers.js';

/** `npm install && npm run demo` builds once: the demo builds a dist/ that is missing or older than a source. */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('npm run demo, mcpb and bench build only a stale dist/', () => {
  it('none of them runs `npm run build` unconditionally; each starts with build-if-stale (the bench measured a stale build once)', () => {
    for (const s of ['demo', 'mcpb', 'bench']) {
      expect(pkg.scripts[s]).not.toMatch(/^npm run build/);
      expect(pkg.scripts[s]).toMatch(/^node --import tsx scripts\/build-if-stale\.ts && /);
    }
  });

  it('the build runs before a pack (`prepack`), and no script of this package runs on install (issue 30 item 11)', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    // npm runs these when the package is installed (prepare: from a git URL, a folder or a tarball): an installed package must run nothing.
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts, s).not.toHaveProperty([s]);
  });

  it('after a complete build (the global setup made one), build-if-stale builds nothing and says nothing', async () => {
    expect(staleBecause()).toBeNull();
    const before = statSync(BUILD_STAMP).mtimeMs;
    const r = await run(process.execPath, ['--import', 'tsx', 'scripts/build-if-stale.ts']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    expect(statSync(BUILD_STAMP).mtimeMs).toBe(before);
  });
});

describe('install scripts: npm 11 is told about each, so `npm install` prints no notice and --strict-allow-scripts installs', () => {
  it('every locked package with an install script has an allowScripts entry', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const allowed = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    for (const name of withScripts) expect(allowed, name).toHaveProperty([name]);
  });
});
