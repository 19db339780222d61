import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { RUNTIME_PACKAGES } from './runtime-packages.js';
import { bundledPackages, noticesText } from './third-party-notices.js';

/**
 * The second step of `npm run build`, after tsc has emitted every module to dist/: the server's
 * binary, dist/src/cli/mcp.js, with its dependencies in a few files. Resolving, reading and
 * linking some 500 separate modules was most of a start; bundled, it starts ≈ 1.6× sooner
 * (docs/performance.md). The binary is the launcher (mcp-launch.ts), which loads the server
 * (mcp-main.ts) once V8 is set. What only one mode uses stays in its own chunk
 * (dist/src/cli/chunks/), loaded when that mode starts: the sandbox, the HTTP transport, the
 * limiter's Redis side. ioredis stays a package, loaded with --redis. The sandbox's binary,
 * dist/src/cli/reply-inbox-sandbox.js, is a second entry of the same build.
 *
 * The modules tsc emitted stay beside it: `node dist/src/cli/mcp-launch.js` runs the same server
 * unbundled, and `node --enable-source-maps dist/src/cli/mcp.js` maps stack traces back to
 * the TypeScript: the bundle's maps are published without the sources' text (docs/deploy.md).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = `${ROOT}dist/src/cli`;
/** Which modules went into which output file: test/e2e/lazy-modules.test.ts reads it. */
export const BUNDLE_META = `${ROOT}dist/mcp-bundle.meta.json`;
/** The licences of every package bundled into the binary; it ships (package.json `files`). */
export const NOTICES = `${ROOT}dist/THIRD_PARTY_NOTICES.txt`;

/**
 * Every tool's published form, computed once here from the modules tsc just emitted: the
 * binary's first tools/list then converts no zod schema (≈ 40 ms of work at run time).
 * test/e2e/published-tools.test.ts holds the binary's list equal to the sources'.
 */
async function publishedTools(): Promise<string> {
  const { ALL_TOOLS } = (await import(`${ROOT}dist/tools/index.js`)) as typeof import('../tools/index.js');
  const { publishedTool } = (await import(`${ROOT}dist/src/mcp/declare/publish.js`)) as typeof import('../src/mcp/declare/publish.js');
  return JSON.stringify(Object.fromEntries(ALL_TOOLS.map((t) => [t.name, publishedTool(t)])));
}

rmSync(`${OUT}/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  // The sandbox binary is bundled too, sharing the chunks: a binary-only install (the library's
  // dependencies are optional peers, docs/performance.md) runs both binaries.
  entryPoints: { mcp: 'dist/src/cli/mcp-launch.js', 'reply-inbox-sandbox': 'dist/src/cli/sandbox.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // The map ships, without the sources: `node --enable-source-maps` then names src/…ts lines (docs/deploy.md).
  sourcemap: 'linked',
  sourcesContent: false,
  external: [...RUNTIME_PACKAGES],
  // The SDK's shims evaluate Ajv at import for a default validator our server never uses.
  alias: { '@modelcontextprotocol/server/_shims': './dist/src/mcp/confirm/sdk-shims.js' },
  // The CommonJS dependencies (undici, pino, bottleneck) require Node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  define: { REPLY_INBOX_PUBLISHED_TOOLS: JSON.stringify(await publishedTools()) },
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(BUNDLE_META, JSON.stringify(result.metafile));
writeFileSync(NOTICES, noticesText(bundledPackages(result.metafile, ROOT)));
for (const bin of ['mcp.js', 'reply-inbox-sandbox.js']) chmodSync(`${OUT}/${bin}`, 0o755);
