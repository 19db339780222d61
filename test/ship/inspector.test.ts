import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../tools/index.js';
import { type Ran, ROOT, run } from './helpers.js';

/**
 * A headless check with a client nobody here wrote: the MCP Inspector's CLI, run with the
 * very commands the README gives (npx fetches the pinned inspector once, then its cache
 * serves it). `npm run build` in that block is left out: the global setup built dist/.
 */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

function readmeCommands(): string[] {
  const block = /```sh\n(npm run build\n[\s\S]*?@modelcontextprotocol\/inspector[\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('the README has no inspector block');
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.startsWith('npx '));
}

let listed: Ran;
let called: Ran;
beforeAll(async () => {
  const [list, call] = readmeCommands();
  listed = await run('bash', ['-c', list!], { timeoutMs: 110_000 });
  called = await run('bash', ['-c', call!], { timeoutMs: 30_000 });
}, 150_000);

describe("npx @modelcontextprotocol/inspector --cli, as the README writes it (needs the npm registry, or npx's cache)", () => {
  it('the README gives two inspector commands, tools/list and tools/call', () => {
    const commands = readmeCommands();
    expect(commands).toHaveLength(2);
    expect(commands[0]).toContain('--method tools/list');
    expect(commands[1]).toContain('--method tools/call');
  });

  it('finds every schema portable: --strict reports no warning and no error, inputs and outputs alike', () => {
    expect(readmeCommands()[0]).toContain('--strict');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).not.toMatch(/^(Warning|Error): tool|Schema portability|\d+ warnings?/m);
  });

  it('lists every tool of the server', () => {
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: unknown; annotations: unknown }[] };
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
    for (const t of tools) expect(t.annotations).toBeTypeOf('object');
  });

  it('calls list_leads and gets two unread interested leads, fenced in the text, compact in structuredContent', () => {
    expect(called.code, called.stderr).toBe(0);
    const r = JSON.parse(called.stdout) as {
      isError?: boolean;
      content: { type: string; text: string }[];
      structuredContent: { data: { status: string; unread: boolean }[] };
    };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.data).toHaveLength(2);
    for (const lead of r.structuredContent.data) expect(lead).toMatchObject({ status: 'interested', unread: true });
    expect(r.content[0]!.text).toMatch(/<untrusted-[0-9a-f]{6}[ >]/);
  });
});
