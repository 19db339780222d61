import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; bin: Record<string, string> };

describe('--version prints the package version on stdout and exits 0', () => {
  it.each(Object.entries(pkg.bin))('%s --version', (_name, bin) => {
    const r = spawnSync(process.execPath, [fileURLToPath(new URL(`../../${bin}`, import.meta.url)), '--version'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.status).toBe(0);
  });
});
