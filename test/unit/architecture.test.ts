import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, filesUnder, importsOf } from '../helpers/source-files.js';

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

/** The rooms of a folder: each sub-folder is one room, each loose file one of its own. */
function roomOf(folder: string, file: string): string | null {
  if (!file.startsWith(`${folder}/`)) return null;
  return join(folder, file.slice(folder.length + 1).split('/')[0]!);
}

/** The imports between the rooms of a folder (type-only imports included), as a graph of rooms. */
function roomGraph(folder: string, imports: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of imports) {
    const from = roomOf(folder, file);
    if (from === null) continue;
    const out = graph.get(from) ?? new Set<string>();
    graph.set(from, out);
    for (const t of targets) {
      const to = roomOf(folder, t);
      if (to !== null && to !== from) out.add(to);
    }
  }
  return new Map([...graph].map(([room, to]) => [room, [...to]]));
}

/** The kit tools import from the core (src/mcp/tool-kit.ts): the one door from tools/ into src/mcp. */
const TOOL_KIT = 'src/mcp/tool-kit.ts';

/** tools/' own files: the tools and their support (a test beside a tool may reach further). */
const toolFiles = () => filesUnder('tools').filter((f) => !f.endsWith('.test.ts'));

describe('no cycle between rooms: the folders and loose files of src/ and of src/mcp, type-only imports included', () => {
  const imports = new Map(filesUnder('src').map((f) => [f, importsOf(f)]));
  it.each(['src', 'src/mcp'])('the rooms of %s import one another one way only', (folder) => {
    expect(cyclesOf(roomGraph(folder, imports))).toEqual([]);
  });

  it('the check finds rooms that import each other through different files, by a type-only import too', () => {
    const graph = new Map([
      ['src/mcp/declare/define.ts', ['src/mcp/pipeline/batch.ts']],
      ['src/mcp/pipeline/call-tool.ts', ['src/mcp/declare/types.ts']],
      ['src/mcp/pipeline/batch.ts', ['src/mcp/view/output.ts']],
      ['src/mcp/server.ts', ['src/mcp/pipeline/call-tool.ts']],
    ]);
    const typeOnly = importsOf('src/mcp/pipeline/call-tool.ts', "import type { ToolDef } from '../declare/types.js';");
    expect(typeOnly).toEqual(['src/mcp/declare/types.ts']);
    expect(cyclesOf(graph)).toEqual([]);
    expect(cyclesOf(roomGraph('src/mcp', graph))).toEqual([['src/mcp/declare', 'src/mcp/pipeline']]);
  });
});

describe('tools reach the core through one narrow kit (src/mcp/tool-kit.ts)', () => {
  it('tools/ imports nothing of src/mcp but the kit', () => {
    const crossings = toolFiles().flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith('src/mcp/') && t !== TOOL_KIT)
        .map((t) => `${f} → ${t}`),
    );
    expect(crossings).toEqual([]);
  });

  it('nothing in src/ imports the kit: it is a door for tools, not a room of the core', () => {
    const users = filesUnder('src').filter((f) => importsOf(f).includes(TOOL_KIT));
    expect(users).toEqual([]);
  });

  it('the kit offers exactly what tools use: every name it exports is imported by a file of tools/', () => {
    const kit = readFileSync(join(ROOT, TOOL_KIT), 'utf8');
    const lists = (text: string, re: RegExp) =>
      [...text.matchAll(re)].flatMap((m) =>
        m[1]!
          .split(',')
          .map((n) => n.trim().replace(/^type\s+/, ''))
          .filter(Boolean),
      );
    const offered = lists(kit, /export (?:type )?\{([^}]*)\} from/g);
    const used = new Set(
      toolFiles().flatMap((f) => lists(readFileSync(join(ROOT, f), 'utf8'), /import (?:type )?\{([^}]*)\} from '[./]+src\/mcp\/tool-kit\.js'/g)),
    );
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((n) => !used.has(n))).toEqual([]);
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
