import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { DESK_HTML_PATH } from '../../src/mcp/desk/constants.js';
import { startRedis } from '../../scripts/harness/redis.js';
import { runtimeTree } from '../../scripts/mcpb.js';
import { RUNTIME_PACKAGES } from '../../scripts/runtime-packages.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { closeTo, ROOT, readmeFigures, run, startServer } from './helpers.js';

/**
 * `npm run mcpb` is tsc then scripts/mcpb.ts; the global setup already built dist/, so
 * the test packs with the script alone, unpacks with mcpb and starts the entry point the
 * way a host does: the manifest's command and args, ${__dirname} and ${user_config.*} filled in.
 */
const MCPB = join(ROOT, 'node_modules', '.bin', 'mcpb');
const scratch = mkdtempSync(join(tmpdir(), 'mcpb-test-'));
const file = join(scratch, 'reply-inbox-mcp.mcpb');
const unpacked = join(scratch, 'unpacked');
let sandbox: Sandbox;
let manifest: any;

beforeAll(async () => {
  const packed = await run(process.execPath, ['--import', 'tsx', 'scripts/mcpb.ts', '--out', file], { timeoutMs: 60_000 });
  if (packed.code !== 0) throw new Error(`mcpb.ts failed: ${packed.stderr}`);
  const un = await run(MCPB, ['unpack', file, unpacked]);
  if (un.code !== 0) throw new Error(`mcpb unpack failed: ${un.stderr}${un.stdout}`);
  manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
  sandbox = await startSandbox({ port: 0, logLevel: 'silent' });
}, 90_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

/** The host's substitution of the manifest's placeholders. */
function hostConfig(userConfig: Record<string, string>): { args: string[]; env: Record<string, string> } {
  const fill = (s: string) => s.replace('${__dirname}', unpacked).replace(/\$\{user_config\.(\w+)\}/g, (_m, k: string) => userConfig[k] ?? '');
  const env = Object.fromEntries(Object.entries(manifest.server.mcp_config.env as Record<string, string>).map(([k, v]) => [k, fill(v)]));
  return { args: (manifest.server.mcp_config.args as string[]).map(fill), env };
}

describe('npm run mcpb packs a lean .mcpb', () => {
  it("holds the repository's manifest, the bundled binary and ioredis's tree only: no other package, no map, no source", () => {
    expect(manifest).toEqual(JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')));
    const all = files(unpacked);
    expect(all).toContain(join('dist', 'src', 'cli', 'mcp.js'));
    expect(all).toContain('package.json');
    const extra = [DESK_HTML_PATH, join('dist', 'THIRD_PARTY_NOTICES.txt')];
    expect(all.filter((f) => f.startsWith('dist/') && !/^dist\/src\/cli\/(mcp\.js|chunks\/[\w-]+\.js)$/.test(f)).sort()).toEqual(extra.sort());
    for (const f of extra) expect(readFileSync(join(unpacked, f), 'utf8'), f).toBe(readFileSync(join(ROOT, f), 'utf8'));
    const packages = readdirSync(join(unpacked, 'node_modules')).flatMap((d) =>
      d.startsWith('@') ? readdirSync(join(unpacked, 'node_modules', d)).map((n) => `${d}/${n}`) : [d],
    );
    expect(packages.sort()).toEqual(runtimeTree(RUNTIME_PACKAGES).map((d) => relative(join(ROOT, 'node_modules'), d)));
    expect(packages).toContain('ioredis');
    for (const bundled of ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod', 'undici', 'pino', 'bottleneck'])
      expect(packages, bundled).not.toContain(bundled);
    expect(all.filter((f) => /^(test|scripts|src)\//.test(f) || f.endsWith('.map') || /\.(c|m)?ts$/.test(f))).toEqual([]);
  });

  it("is at most 1.5 MB, and the README's size and file count are the measured ones within 10%", () => {
    expect(statSync(file).size).toBeLessThanOrEqual(1.5 * 1000 * 1000);
    const [mb, count] = readmeFigures('`.mcpb`');
    expect(closeTo(statSync(file).size / 1e6, mb!), `${statSync(file).size} bytes, README ${mb} MB`).toBe(true);
    expect(closeTo(files(unpacked).length, count!), `${files(unpacked).length} files, README ${count}`).toBe(true);
  });

  it('`mcpb info` reads it back', async () => {
    const r = await run(MCPB, ['info', file]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/reply-inbox-mcp/);
  });
});

describe('the .mcpb starts: its entry point, configured as a host would, answers initialize and tools/list', () => {
  it("with the user_config of a rep key, base URL and workspace, the rest at their defaults: the key's tools, and a call that reaches the API", async () => {
    const defaults = { confirm: String(manifest.user_config.confirm.default), watch_seconds: String(manifest.user_config.watch_seconds.default) };
    const { args, env } = hostConfig({ api_key: SANDBOX_KEYS.rep, base_url: sandbox.baseUrl, workspace: 'acme', read_only: 'false', ...defaults });
    const s = await startServer(process.execPath, args, { ...env, REPLY_INBOX_LOG_LEVEL: 'warn' }, scratch);
    try {
      expect(s.client.getServerVersion()).toMatchObject({ name: 'reply-inbox-mcp', version: manifest.version });
      expect(s.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const names = s.tools.map((t) => t.name);
      expect(names).toContain('set_status');
      expect(names.every((n) => ALL_TOOLS.some((t) => t.name === n))).toBe(true);
      const r = await s.client.callTool({ name: 'list_leads', arguments: { limit: 1 } });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('with read_only true, watching off and "Never" asked: every listed tool is read-only, and nothing can be subscribed to', async () => {
    const { args, env } = hostConfig({
      api_key: SANDBOX_KEYS.rep,
      base_url: sandbox.baseUrl,
      workspace: '',
      read_only: 'true',
      confirm: 'Never',
      watch_seconds: '0',
    });
    const s = await startServer(process.execPath, args, { ...env, REPLY_INBOX_LOG_LEVEL: 'warn' }, scratch);
    try {
      expect(s.client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
      expect(s.tools.length).toBeGreaterThan(0);
      expect(s.tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('with --redis: the ioredis it carries connects, and the rate state lives in that Redis', async () => {
    const redis = await startRedis();
    const { args, env } = hostConfig({
      api_key: SANDBOX_KEYS.rep,
      base_url: sandbox.baseUrl,
      workspace: 'acme',
      read_only: 'true',
      confirm: 'Never',
      watch_seconds: '0',
    });
    const s = await startServer(process.execPath, [...args, '--redis', redis.url], { ...env, REPLY_INBOX_LOG_LEVEL: 'warn' }, scratch);
    try {
      const r = await s.client.callTool({ name: 'list_members', arguments: {} });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((await redis.admin.keys('*')).length).toBeGreaterThan(0);
    } finally {
      await s.close();
      await redis.stop();
    }
  });
});
