import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTracked } from '../../scripts/harness/processes.js';
import { type Sandbox, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { ROOT, run, startServer } from './helpers.js';

/**
 * Every client configuration the README shows, run as written against the packed tarball
 * installed as the README says (`npm install -g ./reply-inbox-mcp-<v>.tgz`, into a fresh
 * prefix through npm_config_prefix), the placeholders of key and base URL filled with a
 * sandbox's. Needs the npm registry or npm's cache (the install fetches the dependencies).
 */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const scratch = mkdtempSync(join(tmpdir(), 'readme-clients-'));
const prefix = join(scratch, 'prefix');
const PATH = `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`;
let sandbox: Sandbox;

/** The first fenced block of `lang` after `marker` in the README. */
function blockAfter(marker: string, lang: string): string {
  const at = readme.indexOf(marker);
  expect(at, `the README has "${marker}"`).toBeGreaterThanOrEqual(0);
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(readme.slice(at));
  if (!m) throw new Error(`no ${lang} block after "${marker}"`);
  return m[1]!;
}

/** A placeholder value of the README (`rik_live_…`, `https://…`) → the sandbox's. */
function filled(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (k === 'REPLY_INBOX_API_KEY') out[k] = SANDBOX_KEYS.admin;
    else if (k === 'REPLY_INBOX_BASE_URL') out[k] = sandbox.baseUrl;
    else out[k] = v;
  }
  return { ...out, PATH, REPLY_INBOX_LOG_LEVEL: 'warn' };
}

interface ServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function jsonConfig(marker: string): ServerConfig {
  return (JSON.parse(blockAfter(marker, 'json')) as { mcpServers: Record<string, ServerConfig> }).mcpServers['reply-inbox']!;
}

/** `claude mcp add NAME -e K=V … -- COMMAND ARGS…` → what Claude Code spawns. */
function claudeCodeConfig(line: string): ServerConfig {
  const [head, tail] = line.split(' -- ');
  const env = Object.fromEntries([...head!.matchAll(/-e (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
  const [command, ...args] = tail!.trim().split(/\s+/);
  return { command: command!, args, env };
}

async function expectServes(c: ServerConfig, opts: { readOnly?: boolean } = {}): Promise<void> {
  const s = await startServer(c.command, c.args, filled(c.env), scratch);
  try {
    expect(s.client.getServerVersion()).toMatchObject({ name: 'reply-inbox-mcp', version: pkg.version });
    expect(s.tools.length).toBeGreaterThan(0);
    if (opts.readOnly) expect(s.tools.filter((t) => t.annotations?.readOnlyHint !== true)).toEqual([]);
    else expect(s.tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
    const me = await s.client.callTool({ name: 'get_me', arguments: {} });
    expect(me.isError, JSON.stringify(me.content)).toBeFalsy();
  } finally {
    await s.close();
  }
}

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch]);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const install = blockAfter('**From a release tarball**', 'sh').split('\n')[1]!;
  expect(install).toBe(`npm install -g ./reply-inbox-mcp-${pkg.version}.tgz`);
  const env = { ...process.env, npm_config_prefix: prefix, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' };
  const inst = await run('bash', ['-c', install], { cwd: scratch, env, timeoutMs: 150_000 });
  if (inst.code !== 0) throw new Error(`${install} failed: ${inst.stderr}`);
  sandbox = await startSandbox({ port: 0, logLevel: 'silent' });
}, 180_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the README, from a release tarball (needs the npm registry or its cache)', () => {
  it('`reply-inbox-mcp --sandbox`, the third line, serves every tool', async () => {
    const line = blockAfter('**From a release tarball**', 'sh').split('\n')[2]!;
    const [command, ...args] = line.split(' ');
    await expectServes({ command: command!, args });
  });

  it('Claude Desktop by hand: the config with a key, and the sandbox variant ("args" and no env)', async () => {
    const c = jsonConfig('**Claude Desktop, by hand**');
    expect(c.command).toBe('reply-inbox-mcp');
    await expectServes(c);
    const variant = /use `"args": (\[[^\]]*\])` and no env/.exec(readme)?.[1];
    expect(variant).toBeDefined();
    await expectServes({ command: c.command, args: JSON.parse(variant!) as string[] });
  });

  it('Claude Code: both `claude mcp add` lines, the command after `--` with the `-e` environment', async () => {
    const lines = blockAfter('**Claude Code**', 'sh').trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) await expectServes(claudeCodeConfig(line));
  });

  it('the agent framework JSON: read-only, every listed tool a read', async () => {
    const c = jsonConfig('**Any stdio agent framework**');
    expect(c.args).toContain('--read-only');
    await expectServes(c, { readOnly: true });
  });

  it('the TypeScript SDK snippet, run as a module, lists every tool', async () => {
    // Beside the repository's node_modules, where the SDK resolves; dist/ is build output.
    const file = join(ROOT, 'dist', 'readme-sdk-snippet.mjs');
    writeFileSync(file, blockAfter('with the TypeScript SDK', 'ts'));
    try {
      const r = await run(process.execPath, [file], { env: { ...process.env, PATH, REPLY_INBOX_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(`${ALL_TOOLS.length} tools`);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

/** Starts `line` in bash, sends initialize, and returns the first line it writes to stdout. */
async function firstStdoutLine(line: string): Promise<string> {
  const child = spawnTracked('bash', ['-c', `exec ${line}`], {
    cwd: ROOT,
    env: { ...process.env, REPLY_INBOX_LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stdin!.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`,
  );
  try {
    while (!out.includes('\n')) {
      const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
      if (chunk === null && !out.includes('\n')) throw new Error(`${line} exited before answering`);
    }
    return out.slice(0, out.indexOf('\n'));
  } finally {
    child.kill('SIGKILL');
  }
}

describe('the README, from a clone: stdout carries MCP from its first byte', () => {
  const lines = () =>
    blockAfter('**From a clone**', 'sh')
      .trim()
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, ''));

  it('gives `node dist/src/cli/mcp.js --sandbox` and `npm start --silent -- --sandbox`', () => {
    expect(lines()).toEqual(['node dist/src/cli/mcp.js --sandbox', 'npm start --silent -- --sandbox']);
  });

  it.each([0, 1])('line %i answers initialize with JSON-RPC as its first line', async (i) => {
    const first = await firstStdoutLine(lines()[i]!);
    expect((JSON.parse(first) as { jsonrpc: string; id: number }).id).toBe(1);
  });

  it('without --silent npm would write its banner first (why the README says --silent)', async () => {
    expect(await firstStdoutLine('npm start -- --sandbox')).toMatch(/^$|^> reply-inbox-mcp@/);
  });
});
