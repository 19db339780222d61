import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

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

/** Every package the metafile says went into the output, sorted by name, each once. */
export function bundledPackages(metafile: Metafile, root: string): BundledPackage[] {
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDir(input);
    if (dir) dirs.add(dir);
  }
  const byName = new Map<string, BundledPackage>();
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
