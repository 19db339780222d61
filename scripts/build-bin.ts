import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The second step of `npm run build`, after tsc has emitted every module to dist/: the server's
 * binary, dist/src/cli/mcp.js, as one file with its dependencies in it. Resolving, reading and
 * linking some 500 separate modules was most of a start; one file starts ≈ 1.5× sooner
 * (docs/performance.md). What only one mode uses stays in its own chunk (dist/src/cli/chunks/),
 * loaded when that mode starts: the sandbox, the HTTP transport, the limiter's Redis side.
 * ioredis stays a package, loaded with --redis.
 *
 * The modules tsc emitted stay beside it: `node dist/src/cli/mcp-main.js` runs the same server
 * unbundled, and `node --enable-source-maps dist/src/cli/mcp.js` maps stack traces back to
 * the TypeScript (the map is not published).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = `${ROOT}dist/src/cli`;
/** Which modules went into which output file: test/e2e/lazy-modules.test.ts reads it. */
export const BUNDLE_META = `${ROOT}dist/mcp-bundle.meta.json`;

rmSync(`${OUT}/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { mcp: 'dist/src/cli/mcp-main.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  external: ['ioredis'],
  // The CommonJS dependencies (undici, pino, bottleneck) require Node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(BUNDLE_META, JSON.stringify(result.metafile));
chmodSync(`${OUT}/mcp.js`, 0o755);
