import { existsSync, readFileSync, readdirSync } from 'node:fs';
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
  src: ['test'],
  tools: ['test'],
  scripts: ['test'],
  // The reply desk's view knows only its host (ext-apps): nothing of the server, the tools or the scripts.
  desk: ['src', 'tools', 'scripts', 'test'],
};

/** Where the house's own code lives: every cycle among these files is a defect. */
const HOUSE = ['src', 'tools', 'scripts', 'desk'];

function filesUnder(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : /\.(ts|mts|mjs)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [join(dir, d.name)] : [],
  );
}

/**
 * Every relative module a file imports, re-exports or loads (type-only imports and `import()`
 * included), as a path from the repository root.
 */
function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const specs = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'));
}

/** The strongly connected groups of more than one file (or a file that imports itself): Tarjan's algorithm. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A test beside the code it tests (tools/<area>.test.ts) is a test, not part of its layer: no layer's own file imports one. */
const isTest = (f: string) => f.endsWith('.test.ts');

describe('the layers import only downwards: api ← client, sandbox ← mcp ← cli', () => {
  it.each(Object.entries(FORBIDDEN))('%s imports none of its forbidden layers', (layer, forbidden) => {
    const crossings = filesUnder(layer)
      .filter((f) => !isTest(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((target) => isTest(target) || forbidden.some((x) => target === x || target.startsWith(`${x}/`)))
          .map((target) => `${f} → ${target}`),
      );
    expect(crossings).toEqual([]);
  });
});

describe('no import cycle, type-only imports included', () => {
  it('no file of src/, tools/ or scripts/ reaches itself through its imports', () => {
    const files = HOUSE.flatMap(filesUnder);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('the check finds a cycle through a type-only import, and an import() call', () => {
    const a = importsOf('src/api/a.ts', "import type { B } from './b.js';");
    const b = importsOf('src/api/b.ts', "const m = await import('./c.js');");
    const c = importsOf('src/api/c.ts', "export { A } from './a.js';");
    expect(a).toEqual(['src/api/b.ts']);
    const graph = new Map([
      ['src/api/a.ts', a],
      ['src/api/b.ts', b],
      ['src/api/c.ts', c],
      ['src/api/d.ts', ['src/api/a.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual([['src/api/a.ts', 'src/api/b.ts', 'src/api/c.ts']]);
  });
});

describe('one MCP SDK: v2 (@modelcontextprotocol/server, client, core, node), never the v1 package', () => {
  it('no file of the house or its tests imports @modelcontextprotocol/sdk', () => {
    const files = [...HOUSE, 'test'].flatMap(filesUnder).filter((f) => f !== 'test/unit/architecture.test.ts');
    const v1 = files.filter((f) => /['"]@modelcontextprotocol\/sdk[/'"]/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(v1).toEqual([]);
  });

  it('package.json names no v1 package', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const named = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((k) => Object.keys(pkg[k] ?? {}));
    expect(named).not.toContain('@modelcontextprotocol/sdk');
    expect(named).toContain('@modelcontextprotocol/server');
  });
});
