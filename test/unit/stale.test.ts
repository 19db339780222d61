import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function filesUnder(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() && d.name !== 'node_modules' ? filesUnder(join(dir, d.name)) : /\.(ts|mts|mjs)$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** The names a module exports by declaration (`export const|function|class|type|interface NAME`). */
function declaredExports(text: string): string[] {
  return [...text.matchAll(/^export (?:declare )?(?:async )?(?:const|let|function\*?|class|abstract class|type|interface|enum) ([A-Za-z_$][\w$]*)/gm)].map(
    (m) => m[1]!,
  );
}

/** Exports no code reads: named nowhere else in the house or its tests, and nowhere else in their own file. */
function deadExports(texts: ReadonlyMap<string, string>, owners: readonly string[]): string[] {
  return owners.flatMap((file) =>
    declaredExports(texts.get(file)!)
      .filter((name) => {
        const word = `(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`;
        if ((texts.get(file)!.match(new RegExp(word, 'g')) ?? []).length > 1) return false;
        const named = new RegExp(word);
        return ![...texts].some(([other, text]) => other !== file && named.test(text));
      })
      .map((name) => `${file}: ${name}`),
  );
}

/** Repository paths a text names (src/…, tools/…, docs/….md …), not those inside another path (dist/src/…). */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.-])(?:src|tools|scripts|docs|test|desk)\/[\w./-]*\w\.(?:ts|mts|mjs|md|json|html)\b/g)].map((m) => m[0]);
}

describe('no stale reference: every repository path the code and the docs name exists', () => {
  it('the paths named in src/, tools/, scripts/, desk/, docs/, README.md and CONTRIBUTING.md are files of the repository', () => {
    const texts = [
      ...['src', 'tools', 'scripts', 'desk'].flatMap(filesUnder),
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      'README.md',
      'CONTRIBUTING.md',
    ];
    const missing = texts.flatMap((f) =>
      namedPaths(readFileSync(join(ROOT, f), 'utf8'))
        .filter((p) => !existsSync(join(ROOT, p)))
        .map((p) => `${f} → ${p}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('the check reads a path in a comment and leaves a built one alone', () => {
    expect(namedPaths('// shape: docs/gaps/content.md; built to dist/src/mcp/desk/desk.html (src/mcp/desk/constants.ts)')).toEqual([
      'docs/gaps/content.md',
      'src/mcp/desk/constants.ts',
    ]);
  });
});

describe('no dead exports: every name src/ and tools/ export is read somewhere', () => {
  it('each exported name of src/ and tools/ is used in its own file or named in another of the house or its tests', () => {
    const files = ['src', 'tools', 'scripts', 'test', 'desk'].flatMap(filesUnder);
    const texts = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    const owners = files.filter((f) => /^(src|tools)\//.test(f) && !f.endsWith('.test.ts'));
    expect(deadExports(texts, owners)).toEqual([]);
  });

  it('the check names an export used nowhere, and spares one used only in its own file or read by another', () => {
    const texts = new Map([
      ['src/a.ts', 'export const used = 1;\nexport function dead() {}\nexport const local = 2;\nconst y = local + 1;\nexport type Shape = { a: 1 };'],
      ['src/b.ts', "import { used } from './a.js';\nimport type { Shape } from './a.js';\nexport const deadly = used;"],
    ]);
    expect(deadExports(texts, ['src/a.ts', 'src/b.ts'])).toEqual(['src/a.ts: dead', 'src/b.ts: deadly']);
  });
});
