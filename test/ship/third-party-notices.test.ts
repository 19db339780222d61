import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundledPackages } from '../../scripts/third-party-notices.js';
import { ROOT } from './helpers.js';

/** What the build (scripts/build-bin.ts) left in dist/: esbuild's metafile and the notices written from it. */
const meta = JSON.parse(readFileSync(join(ROOT, 'dist/mcp-bundle.meta.json'), 'utf8')) as Metafile;
const notices = readFileSync(join(ROOT, 'dist/THIRD_PARTY_NOTICES.txt'), 'utf8');

/** The package names in the metafile's inputs, read here independently of the notices code. */
const inputPackages = [
  ...new Set(
    Object.keys(meta.inputs).flatMap((p) => {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(p);
      return m ? [m[1]!] : [];
    }),
  ),
].sort();

/** Packages the MCP SDK carries inside its own bundled files, from their region markers, read here independently. */
const vendored = [
  ...new Set(
    Object.keys(meta.inputs)
      .filter((p) => p.includes('node_modules/@modelcontextprotocol/'))
      .flatMap((p) => [...readFileSync(join(ROOT, p), 'utf8').matchAll(/^\/\/#region \S*\.pnpm\/([^@/]+)@/gm)].map((m) => m[1]!)),
  ),
].sort();

describe('dist/THIRD_PARTY_NOTICES.txt: every package bundled into the binary, with its licence', () => {
  it('names each package esbuild put into the binary, once, with version and licence', () => {
    expect(inputPackages.length).toBeGreaterThan(10);
    const listed = [...notices.matchAll(/^- (\S+) (\S+) \(([^)]+)\)$/gm)].map((m) => m[1]!);
    expect(listed.sort()).toEqual([...inputPackages, ...vendored].sort());
    expect(notices).toContain(`these ${inputPackages.length + vendored.length} packages`);
  });

  it('carries each licence text verbatim, the MCP SDK v2 packages (Apache-2.0, not MIT) included', () => {
    for (const p of bundledPackages(meta, ROOT)) expect(notices).toContain(`${p.name} ${p.version}, ${p.license}\n\n${p.text}`);
    for (const sdk of ['server', 'core', 'node']) expect(notices).toMatch(new RegExp(`^- @modelcontextprotocol/${sdk} \\S+ \\(Apache-2\\.0\\)$`, 'm'));
    expect(notices).toMatch(/Apache License/);
  });

  it('a package vendored inside the MCP SDK v2 (content-type, in its HTTP parsing) is listed with its own licence', () => {
    expect(vendored).toContain('content-type');
    expect(notices).toMatch(/^- content-type \S+ \(MIT\)$/m);
    expect(notices).toMatch(/content-type \S+, MIT\n\n\(The MIT License\)\n\nCopyright \(c\) 2015 Douglas Christopher Wilson/);
  });

  it('ioredis, loaded as a package with --redis, is not bundled and not listed', () => {
    expect(inputPackages).not.toContain('ioredis');
    expect(notices).not.toMatch(/^- ioredis /m);
  });
});
