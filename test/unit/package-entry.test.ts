import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string> };

describe('the package entry points resolve to modules that exist', () => {
  it.each(Object.entries(pkg.exports))('%s → %s', async (_name, target) => {
    const source = new URL(`../../${target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')}`, import.meta.url);
    const mod = (await import(source.href)) as Record<string, unknown>;
    expect(Object.keys(mod).length).toBeGreaterThan(0);
  });
  it('the root entry gives the server, the tools, the client and the sandbox', async () => {
    const mod = await import('../../src/index.js');
    expect(mod.ALL_TOOLS).toHaveLength(TOOL_ENDPOINTS.length);
    expect(typeof mod.InboxServer).toBe('function');
    expect(typeof mod.ReplyInboxClient).toBe('function');
    expect(typeof mod.startSandbox).toBe('function');
  });
});
