import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The arrows CONTRIBUTING.md says must never exist: layer → the layers it may not import. */
const FORBIDDEN: Record<string, readonly string[]> = {
  'src/api': ['src/client', 'src/mcp', 'src/sandbox', 'src/cli', 'tools', 'src/log.ts', 'src/redact.ts', 'src/version.ts'],
  'src/client': ['src/mcp', 'src/sandbox', 'src/cli', 'tools'],
  'src/sandbox': ['src/client', 'src/mcp', 'src/cli', 'tools'],
  'src/mcp': ['tools', 'src/sandbox', 'src/cli'],
};

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Every relative module a file imports or re-exports, as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'));
}

describe('the layers import only downwards: spec ← client, sandbox ← mcp ← cli', () => {
  it.each(Object.entries(FORBIDDEN))('%s imports none of its forbidden layers', (layer, forbidden) => {
    const crossings = filesUnder(layer).flatMap((f) =>
      importsOf(f)
        .filter((target) => forbidden.some((x) => target === x || target.startsWith(`${x}/`)))
        .map((target) => `${f} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });
});
