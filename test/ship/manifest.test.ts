import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FLAGS } from '../../src/cli/config.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { manifestTools, packageVersion, syncedManifest } from '../../scripts/gen-manifest.js';
import { ROOT, run } from './helpers.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8'));
const MCPB = join(ROOT, 'node_modules', '.bin', 'mcpb');
const scratch = mkdtempSync(join(tmpdir(), 'manifest-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('manifest.json: the tool list is generated from the registry, and a test fails when they differ', () => {
  it('names every tool of ALL_TOOLS once, in registry order, with its title', () => {
    expect(manifest.tools).toEqual(manifestTools(ALL_TOOLS));
    expect(manifest.tools).toHaveLength(ALL_TOOLS.length);
    expect(new Set(manifest.tools.map((t: { name: string }) => t.name)).size).toBe(ALL_TOOLS.length);
  });

  it('the comparison fails for a manifest missing a tool or naming one the registry lacks', () => {
    const fewer = { ...manifest, tools: manifest.tools.slice(1) };
    const extra = { ...manifest, tools: [...manifest.tools, { name: 'send_email', description: 'Send an email' }] };
    expect(fewer.tools).not.toEqual(manifestTools(ALL_TOOLS));
    expect(extra.tools).not.toEqual(manifestTools(ALL_TOOLS));
    expect(syncedManifest(fewer, ALL_TOOLS)).toEqual(manifest);
  });

  it('carries the package version and manifest_version 0.3', () => {
    expect(manifest.version).toBe(packageVersion());
    expect(manifest.manifest_version).toBe('0.3');
    expect(manifest.name).toBe('reply-inbox-mcp');
  });
});

describe('manifest.json: user_config for the API key (sensitive, required), base URL, default workspace, read-only, confirmations, watching', () => {
  it('asks for exactly those six settings, the key sensitive and required', () => {
    expect(Object.keys(manifest.user_config).sort()).toEqual(['api_key', 'base_url', 'confirm', 'read_only', 'watch_seconds', 'workspace']);
    expect(manifest.user_config.api_key).toMatchObject({ type: 'string', sensitive: true, required: true });
    expect(manifest.user_config.base_url).toMatchObject({ type: 'string', required: true });
    expect(manifest.user_config.workspace).toMatchObject({ type: 'string', required: false });
    expect(manifest.user_config.read_only).toMatchObject({ type: 'boolean', default: false });
    expect(manifest.user_config.confirm).toMatchObject({ type: 'string', required: false, default: 'destructive' });
    expect(manifest.user_config.watch_seconds).toMatchObject({ type: 'number', required: false, default: 30, min: 0, max: 3600 });
  });

  it('passes each setting to the server through the env twin of its flag', () => {
    const env = manifest.server.mcp_config.env as Record<string, string>;
    expect(env).toEqual({
      [FLAGS['api-key'].env]: '${user_config.api_key}',
      [FLAGS['base-url'].env]: '${user_config.base_url}',
      [FLAGS.workspace.env]: '${user_config.workspace}',
      [FLAGS['read-only'].env]: '${user_config.read_only}',
      [FLAGS.confirm.env]: '${user_config.confirm}',
      [FLAGS['watch-seconds'].env]: '${user_config.watch_seconds}',
    });
  });

  it("starts the built entry point with the host's node", () => {
    expect(manifest.server).toMatchObject({ type: 'node', entry_point: 'dist/src/cli/mcp.js' });
    expect(manifest.server.mcp_config).toMatchObject({ command: 'node', args: ['${__dirname}/dist/src/cli/mcp.js'] });
  });
});

describe('`mcpb validate manifest.json` passes', () => {
  it('the pinned mcpb CLI accepts the manifest (exit 0)', async () => {
    const r = await run(MCPB, ['validate', 'manifest.json']);
    expect(r.stderr + r.stdout).toMatch(/validation passes/i);
    expect(r.code).toBe(0);
  });

  it('and refuses a manifest whose setting lacks a title (exit 1, naming the field)', async () => {
    const bad = structuredClone(manifest);
    delete bad.user_config.api_key.title;
    const file = join(scratch, 'manifest.json');
    writeFileSync(file, JSON.stringify(bad));
    const r = await run(MCPB, ['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain('user_config.api_key.title');
  });
});
