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

/**
 * A cast of API data: a type assertion (`x as T`, `<T>x`; `as const` is none) whose operand holds
 * what an API answer gave. That is an API call (`.call(…)`, `.send(…)`, `callOwn(…)`, `runPlain(…)`)
 * or a name bound to one, where the name is in scope: by a declaration or destructuring whose
 * initializer holds one, a callback parameter of an array method over one, a for-of variable over
 * one; and the record a confirmation's `change` receives (`now`, as read for the question). A
 * function that reads an answer is not itself one. A double cast (`as unknown as T`) counts once.
 */
function castsOfApiData(file: string): string[] {
  const sf = parse(file);
  const CALLS = new Set(['call', 'send', 'callOwn', 'runPlain']);
  const ARRAY = new Set(['map', 'filter', 'find', 'some', 'every', 'flatMap', 'forEach', 'reduce']);
  const isScope = (n: ts.Node) =>
    ts.isSourceFile(n) || ts.isBlock(n) || ts.isFunctionLike(n) || ts.isForOfStatement(n) || ts.isForStatement(n) || ts.isCatchClause(n);
  const scopeOf = (n: ts.Node): ts.Node => {
    for (let a = n.parent; a; a = a.parent) if (isScope(a)) return a;
    return sf;
  };
  // Every name a scope declares, and which of them hold an answer.
  const declared = new Map<string, ts.Identifier>();
  const key = (scope: ts.Node, name: string) => `${scope.pos}:${scope.end}:${name}`;
  const names = (b: ts.BindingName): ts.Identifier[] =>
    ts.isIdentifier(b) ? [b] : b.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : names(el.name)));
  for (const n of nodesOf(sf, (x) => ts.isVariableDeclaration(x) || ts.isParameter(x))) {
    const decl = n as ts.VariableDeclaration | ts.ParameterDeclaration;
    for (const id of names(decl.name)) declared.set(key(scopeOf(decl), id.text), id);
  }
  const resolve = (use: ts.Identifier): ts.Identifier | undefined => {
    for (let a: ts.Node | undefined = use.parent; a; a = a.parent) {
      const d = isScope(a) ? declared.get(key(a, use.text)) : undefined;
      if (d) return d;
    }
    return undefined;
  };
  const held = new Set<ts.Identifier>();
  const isUse = (n: ts.Identifier) =>
    !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n) && !(ts.isPropertyAssignment(n.parent) && n.parent.name === n);
  const answers = (e: ts.Node) =>
    ts.isCallExpression(e) &&
    ((ts.isIdentifier(e.expression) && CALLS.has(e.expression.text)) || (ts.isPropertyAccessExpression(e.expression) && CALLS.has(e.expression.name.text)));
  const holds = (e: ts.Node): boolean =>
    answers(e) ||
    (ts.isIdentifier(e) && isUse(e) && held.has(resolve(e)!)) ||
    (!ts.isFunctionLike(e) && ts.forEachChild(e, (c) => (holds(c) ? true : undefined)) === true);
  const bind = (b: ts.BindingName) => {
    for (const id of names(b)) held.add(id);
  };
  const all = nodesOf(sf, () => true);
  for (let before = -1; before !== held.size; ) {
    before = held.size;
    for (const n of all) {
      if (ts.isVariableDeclaration(n) && n.initializer && holds(n.initializer)) bind(n.name);
      if (ts.isForOfStatement(n) && holds(n.expression) && ts.isVariableDeclarationList(n.initializer))
        for (const d of n.initializer.declarations) bind(d.name);
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ARRAY.has(n.expression.name.text) && holds(n.expression.expression)) {
        const cb = n.arguments[0];
        if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) for (const p of cb.parameters) bind(p.name);
      }
      if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isPropertyAssignment(n.parent) && n.parent.name.getText(sf) === 'change') {
        const now = n.parameters[1];
        if (now) bind(now.name);
      }
    }
  }
  const casts = nodesOf(sf, (n) => (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && n.type.getText(sf) !== 'const');
  return casts
    .filter((c) => !ts.isAsExpression(c.parent) && holds((c as ts.AsExpression).expression))
    .map((c) => `${file}:${lineOf(sf, c) + 1} ${c.getText(sf).replace(/\s+/g, ' ').slice(0, 90)}`);
}

describe('what the API answers is read as its type, not cast to one', () => {
  it('src/mcp and tools cast API data at most 5 times', () => {
    const casts = sources('src/mcp', 'tools').flatMap(castsOfApiData);
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(5);
  });

  it('the rule counts a cast of an answer, of what is bound to it, of a confirmation record; not of arguments', () => {
    // A file written for the rule (test/unit/fixtures/api-casts.ts): its casts to Counted count, those to Left do not.
    const found = castsOfApiData('test/unit/fixtures/api-casts.ts').map((c) => [...c.matchAll(/ as (\w+)/g)].at(-1)?.[1]);
    expect(found).toEqual(['Counted', 'Counted', 'Counted', 'Counted', 'Counted', 'Counted']);
    const all = readFileSync(join(ROOT, 'test/unit/fixtures/api-casts.ts'), 'utf8').match(/ as Counted\b/g) ?? [];
    expect(all).toHaveLength(6);
  });
});
