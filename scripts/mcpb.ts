import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb/cli';
import { DESK_HTML_PATH } from '../src/mcp/desk/constants.js';
import { packageVersion } from './gen-manifest.js';
import { RUNTIME_PACKAGES } from './runtime-packages.js';

/**
 * `npm run mcpb`: an MCP Bundle (.mcpb) for Claude Desktop and other hosts. It holds what the
 * manifest's entry point loads and nothing else: the bundled binary (dist/src/cli/mcp.js and
 * its chunks, every dependency inside them) and ioredis, the one package the binary loads by
 * path, with --redis only, with the packages ioredis needs. It runs with the host's Node and
 * nothing to install. Expects dist/ to be built (the npm script builds when it is stale).
 * Usage: mcpb.ts [--out FILE].
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Beyond mcpb's own exclusions (maps, .d.ts, lockfiles): TypeScript sources and docs of those packages, which Node never loads. */
const IGNORE = ['node_modules/**/*.ts', 'node_modules/**/*.mts', 'node_modules/**/*.cts', 'node_modules/**/*.md'];

export const DEFAULT_MCPB = join(ROOT, 'dist', `reply-inbox-mcp-${packageVersion()}.mcpb`);

/** The directory Node resolves `name` to from `from`: the nearest node_modules/name above it. */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (looked above ${from})`);
  }
}

/** `names` and everything they depend on, each as the directory Node would load it from. */
export function runtimeTree(names: readonly string[], from: string = ROOT): string[] {
  const found = new Set<string>();
  const visit = (name: string, at: string) => {
    const dir = packageDir(name, at);
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir);
  };
  for (const n of names) visit(n, from);
  return [...found].sort();
}

/** What the host's Node needs to run the entry point: ESM (`type`), and the version the server reports. */
function runtimePackageJson(): string {
  const { name, version, description, license, type, engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  return `${JSON.stringify({ name, version, description, license, type, engines }, null, 2)}\n`;
}

/** Copy what the server needs at run time into a fresh directory laid out like the package. */
function stage(dir: string): void {
  for (const f of ['manifest.json', 'README.md', 'LICENSE']) cpSync(join(ROOT, f), join(dir, f));
  writeFileSync(join(dir, 'package.json'), runtimePackageJson());
  writeFileSync(join(dir, '.mcpbignore'), `${IGNORE.join('\n')}\n`);
  const cli = join(ROOT, 'dist', 'src', 'cli');
  if (!existsSync(join(cli, 'mcp.js'))) throw new Error('dist/src/cli/mcp.js is missing: run npm run build first');
  cpSync(join(cli, 'mcp.js'), join(dir, 'dist', 'src', 'cli', 'mcp.js'));
  cpSync(join(cli, 'chunks'), join(dir, 'dist', 'src', 'cli', 'chunks'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  // The reply desk's HTML, read when a client that renders MCP Apps asks for it, and the licences of the bundled packages.
  for (const f of [DESK_HTML_PATH, 'dist/THIRD_PARTY_NOTICES.txt']) cpSync(join(ROOT, f), join(dir, f));
  for (const pkg of runtimeTree(RUNTIME_PACKAGES)) {
    // Each package of the tree is copied on its own: a nested node_modules may hold what ioredis does not need.
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
