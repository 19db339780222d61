import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** A function longer than this is a pipeline waiting for names (CONTRIBUTING.md). */
const MAX_LINES = 80;
/** Data, not logic: the sandbox's seed records are declared as long literals. */
const DATA = [/^src\/sandbox\/seed\//];

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourcesUnder(join(dir, d.name)) : /\.(ts|mts)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [join(dir, d.name)] : [],
  );
}

/** Every function (declaration, method, accessor, constructor, arrow or expression) of a file with its length in lines. */
function functionsOf(file: string, text: string): { name: string; lines: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name;
      const name = named ? named.getText(sf) : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(sf) : `(anonymous at line ${start + 1})`;
      found.push({ name: `${file}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no function is over 80 lines outside data files', () => {
  it('src/, tools/ and scripts/ hold no function longer than 80 lines', () => {
    const files = ['src', 'tools', 'scripts'].flatMap(sourcesUnder).filter((f) => !DATA.some((d) => d.test(f)));
    const long = files.flatMap((f) => functionsOf(f, readFileSync(join(ROOT, f), 'utf8'))).filter((fn) => fn.lines > MAX_LINES);
    expect(long.map((fn) => `${fn.name} (${fn.lines} lines)`)).toEqual([]);
  });

  it('the measure counts a function from its first line to its last, nested ones apart', () => {
    const body = Array.from({ length: 81 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const fns = functionsOf('x.ts', `export function long() {\n${body}\n  const inner = () => 1;\n}\n`);
    expect(fns).toEqual([
      { name: 'x.ts:1 long', lines: 84 },
      { name: 'x.ts:83 inner', lines: 1 },
    ]);
  });
});
