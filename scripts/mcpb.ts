import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb/cli';
import { packageVersion } from './gen-manifest.js';

/**
 * `npm run mcpb`: an MCP Bundle (.mcpb) for Claude Desktop and other hosts. The bundle is
 * a zip of manifest.json, the built server and its production dependencies only, so it
 * runs with the host's Node and nothing to install. Expects dist/ to be built (the npm
 * script builds first). Usage: mcpb.ts [--out FILE].
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Beyond mcpb's own exclusions (maps, .d.ts, lockfiles): TypeScript sources and docs of dependencies, which Node never loads. */
const IGNORE = ['node_modules/**/*.ts', 'node_modules/**/*.mts', 'node_modules/**/*.cts', 'node_modules/**/*.md'];

export const DEFAULT_MCPB = join(ROOT, 'dist', `reply-inbox-mcp-${packageVersion()}.mcpb`);

/** Directories of the production dependency tree, as npm resolved them here. */
function productionPackages(): string[] {
  const r = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' });
  // npm ls exits 1 for an extraneous package elsewhere in the tree; the list it printed is still right.
  const dirs = r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && resolve(l) !== resolve(ROOT));
  if (dirs.length === 0) throw new Error(`npm ls listed no production package: ${r.stderr}`);
  return dirs;
}

/** Copy what the server needs at run time into a fresh directory laid out like the package. */
function stage(dir: string): void {
  for (const f of ['manifest.json', 'package.json', 'README.md']) cpSync(join(ROOT, f), join(dir, f));
  writeFileSync(join(dir, '.mcpbignore'), `${IGNORE.join('\n')}\n`);
  for (const d of ['dist/src', 'dist/tools']) {
    if (!existsSync(join(ROOT, d))) throw new Error(`${d} is missing: run npm run build first`);
    cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  }
  // The licences of the packages bundled into the binary (scripts/build-bin.ts writes it).
  cpSync(join(ROOT, 'dist/THIRD_PARTY_NOTICES.txt'), join(dir, 'dist/THIRD_PARTY_NOTICES.txt'));
  for (const pkg of productionPackages()) {
    // Nested node_modules are listed on their own lines; copying them here too could bring in what npm ls left out.
    cpSync(pkg, join(dir, relative(ROOT, pkg)), { recursive: true, filter: (src) => src === pkg || basename(src) !== 'node_modules' });
  }
}

export async function packMcpb(out: string = DEFAULT_MCPB): Promise<{ file: string; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'reply-inbox-mcpb-'));
  try {
    stage(dir);
    const ok = await packExtension({ extensionPath: dir, outputPath: out, silent: true });
    if (!ok) throw new Error('mcpb pack refused the bundle (run npx mcpb validate manifest.json)');
    return { file: out, bytes: statSync(out).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]!) : DEFAULT_MCPB;
  const { file, bytes } = await packMcpb(out);
  process.stdout.write(`${relative(process.cwd(), file) || file}: ${(bytes / 1024 / 1024).toFixed(2)} MiB (${bytes} bytes) in ${dirname(file)}\n`);
}
