import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTracked } from '../../scripts/harness/processes.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { closeTo, ROOT, readmeFigures, run, startServer } from './helpers.js';

/**
 * The npm package as a stranger gets it: `npm pack`, then `npm install <tarball>` in an
 * empty project (its dependencies from npm's cache when it holds them, else from the registry,
 * --prefer-offline: the slow part, 10-40 s; a fresh machine's cache holds only what npm ci
 * fetched, never the packuments an install resolves ranges with),
 * then the installed binaries, which need none of the library's dependencies (they are optional
 * peers: a binary-only install is measured before they are added), and each entry of `exports`,
 * imported by name from that project once the peers the README names are installed. --ignore-scripts on pack because the global setup already built dist/
 * (pack would otherwise run `prepack`, the build).
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string>;
};
const scratch = mkdtempSync(join(tmpdir(), 'pack-test-'));
const app = join(scratch, 'app');
let tarball = '';
let listed: { path: string; size: number }[] = [];
let unpackedSize = 0;
/** The binary-only install, measured before the peers are added: packages, bytes, the sandbox binary's first line, what npm said. */
const binaryOnly = { packages: 0, bytes: 0, sandboxLine: '', npmSaid: '' };
const peers = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).peerDependencies as Record<string, string>;

/** The sandbox binary of the binary-only install prints its base URL: nothing it needs is missing. */
async function sandboxFirstLine(): Promise<string> {
  const child = spawnTracked(join(app, 'node_modules', '.bin', 'reply-inbox-sandbox'), ['--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const line = new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('close', () => resolve(`exited: ${err}`));
  });
  try {
    return await line;
  } finally {
    child.kill();
  }
}

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch]);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string; size: number }[] }[];
  tarball = join(scratch, info[0]!.filename);
  listed = info[0]!.files;
  unpackedSize = (info[0] as unknown as { unpackedSize: number }).unpackedSize;
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-test-app', version: '1.0.0', private: true }));
  const inst = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, timeoutMs: 120_000 });
  if (inst.code !== 0) throw new Error(`npm install of the tarball failed: ${inst.stderr}`);
  binaryOnly.npmSaid = inst.stdout + inst.stderr;
  const ls = await run('npm', ['ls', '--all', '--parseable'], { cwd: app });
  binaryOnly.packages = ls.stdout.trim().split('\n').length - 1;
  binaryOnly.bytes = Number((await run('du', ['-sb', join(app, 'node_modules')])).stdout.split('\t')[0]);
  binaryOnly.sandboxLine = await sandboxFirstLine();
  const withPeers = Object.entries(peers).map(([name, range]) => `${name}@${range}`);
  const lib = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...withPeers], { cwd: app, timeoutMs: 120_000 });
  if (lib.code !== 0) throw new Error(`npm install of the peers failed: ${lib.stderr}`);
}, 270_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm pack: `files` keeps the tarball lean', () => {
  it('holds the built server, its notices, the manifest, the README and the licence; no tests, scripts or sources', () => {
    const paths = listed.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'manifest.json',
        'dist/src/cli/mcp.js',
        'dist/src/cli/sandbox.js',
        'dist/src/cli/reply-inbox-sandbox.js',
        'dist/THIRD_PARTY_NOTICES.txt',
      ]),
    );
    expect(paths.filter((p) => !/^(dist\/(src|tools)\/|dist\/THIRD_PARTY_NOTICES\.txt$|package\.json$|README\.md$|LICENSE$|manifest\.json$)/.test(p))).toEqual(
      [],
    );
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    // The tool tests beside the tools (tools/<area>.test.ts) are neither built nor packed.
    expect(paths.filter((p) => /\.test\./.test(p))).toEqual([]);
    // The bundle's maps ship (a user's stack trace can be mapped); tsc's maps of the separate modules do not.
    expect(paths.filter((p) => p.endsWith('.map')).every((p) => /^dist\/src\/cli\/(mcp\.js|chunks\/[^/]+\.js)\.map$/.test(p))).toBe(true);
    expect(paths).toContain('dist/src/cli/mcp.js.map');
    // ≈ 0.3 MB packed of it are the bundle's maps (mappings only, no source text); ≈ 0.8 MB without them.
    expect(statSync(tarball).size).toBeLessThan(1.5 * 1024 * 1024);
  });
});

describe('installing the tarball gives a working reply-inbox-mcp', () => {
  it('`reply-inbox-mcp --sandbox` from the install answers initialize and tools/list with every tool', async () => {
    const bin = join(app, 'node_modules', '.bin', 'reply-inbox-mcp');
    const s = await startServer(bin, ['--sandbox'], { REPLY_INBOX_LOG_LEVEL: 'warn' }, app);
    try {
      expect(s.client.getServerVersion()).toMatchObject({ name: pkg.name, version: pkg.version });
      expect(s.tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
      const me = await s.client.callTool({ name: 'get_me', arguments: {} });
      expect(me.isError).toBeFalsy();
    } finally {
      await s.close();
    }
  });

  it('runs no script of the package: npm has no install script to warn about or ask to allow (issue 30 item 11)', () => {
    expect(binaryOnly.npmSaid).not.toMatch(/install-scripts|allow-scripts|prepare|EBADENGINE/i);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(installed.scripts ?? {}, s).not.toHaveProperty([s]);
  });

  it('installed both binaries of package.json', () => {
    for (const name of Object.keys(pkg.bin)) expect(statSync(join(app, 'node_modules', '.bin', name)).isFile()).toBe(true);
  });

  it('`reply-inbox-sandbox` runs from the binary-only install, before any peer is added', () => {
    expect(binaryOnly.sandboxLine).toMatch(/^\{"base_url":"http:\/\/127\.0\.0\.1:\d+"\}$/);
  });
});

/** The names each entry of `exports` gives, imported by a user's module in the scratch project. */
async function installedExports(): Promise<Record<string, string[]>> {
  const specifiers = Object.keys(pkg.exports).map((k) => (k === '.' ? pkg.name : `${pkg.name}/${k.slice(2)}`));
  const probe = join(app, 'probe.mjs');
  writeFileSync(
    probe,
    `const out = {};\nfor (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(await import(s)).sort();\nprocess.stdout.write(JSON.stringify(out));\n`,
  );
  const ran = await run(process.execPath, [probe], { cwd: app });
  if (ran.code !== 0) throw new Error(`importing the exports failed: ${ran.stderr}`);
  return JSON.parse(ran.stdout) as Record<string, string[]>;
}

describe('each entry of `exports`, imported from the installed package as a user would', () => {
  it('gives exactly the names its source module exports (./spec is the alias of ./api)', async () => {
    const got = await installedExports();
    const names = async (m: Promise<Record<string, unknown>>) => Object.keys(await m).sort();
    const api = await names(import('../../src/api/index.js'));
    expect(got).toEqual({
      [pkg.name]: await names(import('../../src/index.js')),
      [`${pkg.name}/api`]: api,
      [`${pkg.name}/client`]: await names(import('../../src/client/index.js')),
      [`${pkg.name}/sandbox`]: await names(import('../../src/sandbox/index.js')),
      [`${pkg.name}/spec`]: api,
    });
    expect(got[pkg.name]).toEqual(expect.arrayContaining(['ALL_TOOLS', 'InboxServer', 'ReplyInboxClient', 'startSandbox']));
  });

  it('the root entry, installed, starts a sandbox its client reads from', async () => {
    const probe = join(app, 'use.mjs');
    writeFileSync(
      probe,
      [
        `import { ALL_TOOLS, ReplyInboxClient, startSandbox, SANDBOX_KEYS } from '${pkg.name}';`,
        "const sb = await startSandbox({ port: 0, logLevel: 'silent' });",
        "const c = new ReplyInboxClient({ apiKey: SANDBOX_KEYS.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });",
        'const me = await c.me();',
        'await c.close();',
        'await sb.close();',
        'process.stdout.write(JSON.stringify({ tools: ALL_TOOLS.length, me: typeof me }));',
      ].join('\n'),
    );
    const ran = await run(process.execPath, [probe], { cwd: app });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ tools: ALL_TOOLS.length, me: 'object' });
  });
});

describe("the README's sizes of the tarball and its install are the measured ones, within 10%", () => {
  it('packed and unpacked MB', () => {
    const [packed] = readmeFigures('npm tarball, packed');
    const [unpacked] = readmeFigures('npm tarball, unpacked');
    expect(closeTo(statSync(tarball).size / 1e6, packed!), `packed ${statSync(tarball).size} bytes, README ${packed} MB`).toBe(true);
    expect(closeTo(unpackedSize / 1e6, unpacked!), `unpacked ${unpackedSize} bytes, README ${unpacked} MB`).toBe(true);
  });

  it('packages installed and their MB on disk, binary-only (no peers)', () => {
    const [count, mb] = readmeFigures('npm install of the tarball');
    const { packages, bytes } = binaryOnly;
    expect(closeTo(packages, count!), `${packages} packages, README ${count}`).toBe(true);
    expect(closeTo(bytes / 1e6, mb!), `${bytes} bytes, README ${mb} MB`).toBe(true);
  });
});
