import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, build, transform } from 'esbuild';
import { DESK_HTML_PATH } from '../src/mcp/desk/constants.js';

/**
 * The third step of `npm run build`: the reply desk (desk/) as ONE self-contained HTML file, its
 * script (the desk and its own side of the MCP Apps protocol, desk/link.ts) and its style inlined, so that it loads nothing and a
 * host's default CSP (no network) allows it. The server reads it from DESK_HTML_PATH. Also the
 * small host page of `npm run desk` and the browser tests (scripts/desk/page/), into dist/desk-host/.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DESK_HTML = `${ROOT}${DESK_HTML_PATH}`;
export const HOST_DIR = `${ROOT}dist/desk-host`;

/** The view's budget (it is about 35 KB since it speaks the protocol itself); the whole file stays under this. */
export const DESK_MAX_BYTES = 800 * 1024;

/** Inline text must not end the <script> or <style> element it sits in, nor open an HTML comment there. */
function inlineSafe(code: string, tag: 'script' | 'style'): string {
  return code.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * zod's every locale (about 260 KB minified) rides along with ext-apps' SDK in the host page; it
 * only ever speaks English, so zod's locale index is cut down to English alone.
 */
const englishOnlyZod: Plugin = {
  name: 'english-only-zod',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), args.path), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The MCP SDK 2.x packages declare no `sideEffects`, so esbuild keeps every module-level statement
 * they hold (OAuth, the HTTP and SSE transports, their schemas) though the host page uses only
 * the client over Streamable HTTP and the bridge over postMessage. Their modules define things and start nothing: marked free of side
 * effects, what the app does not use is left out. (zod is not marked: it sets its locale on load.)
 */
const sdkWithoutSideEffects: Plugin = {
  name: 'sdk-without-side-effects',
  setup(b) {
    const sdk = /@modelcontextprotocol[\\/](client|core)([\\/]|$)/;
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'sdk' || !(sdk.test(args.path) || sdk.test(args.importer))) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'sdk' });
      // Only the SDK's own modules: what they import from elsewhere (zod) keeps its side effects.
      return sdk.test(r.path) ? { ...r, sideEffects: false } : r;
    });
  },
};

async function bundle(entry: string, banner?: string): Promise<string> {
  const r = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    plugins: [englishOnlyZod, sdkWithoutSideEffects],
    ...(banner ? { banner: { js: banner } } : {}),
    write: false,
    logLevel: 'warning',
  });
  return r.outputFiles[0]!.text;
}

export async function buildDesk(): Promise<{ file: string; bytes: number }> {
  // The bench's stages: when the script's first line runs, after the page parsed and compiled it.
  const js = await bundle('desk/main.ts', "performance.mark('desk:bundle-start');");
  const css = (await transform(readFileSync(`${ROOT}desk/style.css`, 'utf8'), { loader: 'css', minify: true })).code;
  const html = readFileSync(`${ROOT}desk/index.html`, 'utf8')
    .replace('/*DESK_CSS*/', () => inlineSafe(css, 'style'))
    .replace('/*DESK_JS*/', () => inlineSafe(js, 'script'));
  const bytes = Buffer.byteLength(html);
  if (bytes > DESK_MAX_BYTES) throw new Error(`the reply desk is ${bytes} bytes, over its budget of ${DESK_MAX_BYTES}`);
  mkdirSync(dirname(DESK_HTML), { recursive: true });
  writeFileSync(DESK_HTML, html);
  return { file: DESK_HTML, bytes };
}

/** The host page (AppBridge + the MCP client) and the sandbox proxy page it frames on another origin. */
export async function buildDeskHost(): Promise<void> {
  mkdirSync(HOST_DIR, { recursive: true });
  const js = await bundle('scripts/desk/page/host.ts');
  const page = readFileSync(`${ROOT}scripts/desk/page/host.html`, 'utf8').replace('/*HOST_JS*/', () => inlineSafe(js, 'script'));
  writeFileSync(`${HOST_DIR}/host.html`, page);
  writeFileSync(`${HOST_DIR}/sandbox.html`, readFileSync(`${ROOT}scripts/desk/page/sandbox.html`, 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes } = await buildDesk();
  await buildDeskHost();
  process.stderr.write(`reply desk: ${bytes} bytes\n`);
}
