import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The second step of `npm run build`, after tsc has emitted every module to dist/: the server's
 * binary, dist/src/cli/mcp.js, with its dependencies in a few files. Resolving, reading and
 * linking some 500 separate modules was most of a start; bundled, it starts ≈ 1.6× sooner
 * (docs/performance.md). The binary is the launcher (mcp-launch.ts), which loads the server
 * (mcp-main.ts) once V8 is set. What only one mode uses stays in its own chunk
 * (dist/src/cli/chunks/), loaded when that mode starts: the sandbox, the HTTP transport, the
 * limiter's Redis side. ioredis stays a package, loaded with --redis.
 *
 * The modules tsc emitted stay beside it: `node dist/src/cli/mcp-launch.js` runs the same server
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
  entryPoints: { mcp: 'dist/src/cli/mcp-launch.js' },
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
