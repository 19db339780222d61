import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/api/endpoints.js';

// The API's vocabulary typed end to end (issue 33, item 3): an endpoint's name is a name of the
// table wherever it is written, and what the API answers is read as its type, not cast to one.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = new Set<string>(ENDPOINTS.map((e) => e.name));

/** The .ts files under these folders, tests aside. */
function sources(...dirs: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : /(?<!\.test|\.d)\.ts$/.test(d.name) ? [join(dir, d.name)] : [],
    );
  return dirs.flatMap(walk);
}

const parse = (file: string) => ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

function nodesOf(sf: ts.SourceFile, keep: (n: ts.Node) => boolean): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node) => {
    if (keep(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const lineOf = (sf: ts.SourceFile, n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;

describe('an endpoint name is a name of the table wherever it is written', () => {
  it('renaming every row of the table fails the compile at each use of its name in src/mcp, src/client, src/cli and tools', () => {
    // Every string that is exactly a row's name, as written in the server, the client, the binaries and the tools.
    const uses = sources('src/mcp', 'src/client', 'src/cli', 'tools').flatMap((file) => {
      const sf = parse(file);
      const named = nodesOf(sf, (n) => (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && NAMES.has(n.text));
      return named.map((n) => ({ file, line: lineOf(sf, n), name: (n as ts.StringLiteral).text }));
    });
    expect(uses.length).toBeGreaterThan(50);

    // The table as it would be with every row renamed (get_me → get_me_renamed), read by the compiler from memory.
    const table = sources('src/api/table').map((f) => join(ROOT, f));
    const renamed = new Map(table.map((f) => [f, readFileSync(f, 'utf8').replace(/\bname: '(\w+)'/g, "name: '$1_renamed'")]));
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const options: ts.CompilerOptions = { ...config!.options, noEmit: true, types: [] };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, onError, create) => {
      const text = renamed.get(name);
      return text === undefined ? read(name, lang, onError, create) : ts.createSourceFile(name, text, lang);
    };
    // Names are typed by the table alone: the packages (zod, the SDK, pino, undici) are left unread, which keeps this quick.
    host.resolveModuleNameLiterals = (literals, containing, _redirected, opts) =>
      literals.map((l) => (l.text.startsWith('.') ? ts.resolveModuleName(l.text, containing, opts, host) : { resolvedModule: undefined }));
    const files = [...new Set(uses.map((u) => u.file))];
    const program = ts.createProgram({ rootNames: files.map((f) => join(ROOT, f)), options, host });

    // Each use's line has an error that names the old name: the compiler refuses that name there.
    const refused = new Set<string>();
    for (const file of files) {
      const sf = program.getSourceFile(join(ROOT, file))!;
      for (const d of program.getSemanticDiagnostics(sf)) {
        const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
        for (const m of text.matchAll(/"(\w+)"/g)) refused.add(`${file}:${sf.getLineAndCharacterOfPosition(d.start ?? 0).line}:${m[1]}`);
      }
    }
    const compiles = uses.filter((u) => !refused.has(`${u.file}:${u.line}:${u.name}`)).map((u) => `${u.file}:${u.line + 1} '${u.name}'`);
    expect(compiles, 'names that still compile with their row renamed').toEqual([]);
  }, 120_000);
});
