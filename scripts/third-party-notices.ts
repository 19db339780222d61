import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * Licences of packages that a bundled package carries inside its own files (the MCP SDK v2's
 * dist vendors ajv, fast-uri and others): node_modules has no folder of theirs to read the
 * licence from, so each is kept here, as the package published it, named NAME@VERSION.txt,
 * its first line `license: SPDX`.
 */
const VENDORED_LICENCES = new URL('./vendored-licences/', import.meta.url).pathname;

/** A bundler's region marker naming the package a stretch of a vendored file came from. */
const VENDORED_REGION = /^\/\/#region \S*?node_modules\/\.pnpm\/(@[^+/]+\+)?([^@/]+)@([^_/]+)/gm;

/** One package esbuild copied into the binary, with what its licence asks us to pass on. */
export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  /** The package's own licence file, verbatim. */
  text: string;
}

/** The package folders an input path lies in: `…/node_modules/@scope/name/lib/x.js` → `…/node_modules/@scope/name`. */
function packageDir(input: string): string | null {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? m[1]! : null;
}

function licenseText(dir: string): string {
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  if (!file) throw new Error(`${dir} has no licence file: the binary cannot ship it without its notice`);
  return readFileSync(join(dir, file), 'utf8').trim();
}

/** The packages vendored inside the bundled input files, as `name@version`. */
export function vendoredIn(files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(VENDORED_REGION)) found.add(`${m[1] ? `${m[1].slice(0, -1)}/` : ''}${m[2]}@${m[3]}`);
  }
  return [...found];
}

/** A vendored package's entry, from the licence kept in scripts/vendored-licences/. */
function vendoredPackage(id: string): BundledPackage {
  const file = join(VENDORED_LICENCES, `${id.replace('/', '+')}.txt`);
  if (!existsSync(file))
    throw new Error(`${id} is vendored inside a bundled package but ${file} is missing: add its licence, as published, before shipping it`);
  const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
  const license = /^license: (\S+)$/.exec(first ?? '')?.[1];
  if (!license) throw new Error(`${file} must start with a line "license: SPDX"`);
  const at = id.lastIndexOf('@');
  return { name: id.slice(0, at), version: id.slice(at + 1), license, text: rest.join('\n').trim() };
}

/** Every package the metafile says went into the output, and those vendored inside them, sorted by name, each once. */
export function bundledPackages(metafile: Metafile, root: string): BundledPackage[] {
  const dirs = new Set<string>();
  const inputs = Object.keys(metafile.inputs);
  for (const input of inputs) {
    const dir = packageDir(input);
    if (dir) dirs.add(dir);
  }
  const byName = new Map<string, BundledPackage>();
  for (const id of vendoredIn(inputs.filter((i) => packageDir(i)).map((i) => join(root, i)))) {
    const p = vendoredPackage(id);
    byName.set(`${p.name}@${p.version}`, p);
  }
  for (const dir of dirs) {
    const abs = join(root, dir);
    const manifest = join(abs, 'package.json');
    if (!existsSync(manifest)) throw new Error(`${dir} has no package.json`);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; license?: string };
    const key = `${pkg.name}@${pkg.version}`;
    if (!byName.has(key)) byName.set(key, { name: pkg.name, version: pkg.version, license: pkg.license ?? 'UNKNOWN', text: licenseText(abs) });
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The notices file shipped beside the binary: a list, then each package's licence text. */
export function noticesText(packages: BundledPackage[]): string {
  const head = [
    'Third-party notices for the reply-inbox-mcp binary (dist/src/cli/mcp.js and its chunks).',
    '',
    `The binary contains code of these ${packages.length} packages, bundled by esbuild; their licences follow.`,
    'A fix in one of them reaches users only in a new release of reply-inbox-mcp.',
    '',
    ...packages.map((p) => `- ${p.name} ${p.version} (${p.license})`),
  ];
  const bodies = packages.map((p) => [`${'-'.repeat(72)}`, `${p.name} ${p.version}, ${p.license}`, '', p.text].join('\n'));
  return `${[head.join('\n'), ...bodies].join('\n\n')}\n`;
}
