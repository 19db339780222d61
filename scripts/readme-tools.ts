import { fileURLToPath } from 'node:url';
import type { ToolDef } from '../src/mcp/declare/define.js';

/**
 * The README's parts that the registry decides, written by `npm run docs:tools` (with
 * docs/tools.md) between markers, so a new tool cannot leave the README behind:
 * `<!-- tools:NAME -->…<!-- /tools:NAME -->`. test/ship/tools-doc.test.ts fails when they are stale.
 */
export const README = fileURLToPath(new URL('../README.md', import.meta.url));

const MARKED = /<!-- tools:(\w+)[^>]*-->([\s\S]*?)<!-- \/tools:\1 -->/g;

/** The toolsets in the registry's order, each with its tools. */
export function byToolset(tools: readonly ToolDef[]): [toolset: string, tools: ToolDef[]][] {
  const sets = [...new Set(tools.map((t) => t.toolset))];
  return sets.map((ts) => [ts, tools.filter((t) => t.toolset === ts)]);
}

/** A `| toolset | tools |` table, each tool written by `name`. */
export function toolsetTable(tools: readonly ToolDef[], name: (t: ToolDef) => string): string[] {
  return ['| toolset | tools |', '|---|---|', ...byToolset(tools).map(([ts, list]) => `| ${ts} | ${list.map(name).join(', ')} |`)];
}

/** What goes between each pair of markers. */
export function readmeParts(tools: readonly ToolDef[]): Record<string, string> {
  return {
    count: String(tools.length),
    toolsets: byToolset(tools)
      .map(([ts]) => ts)
      .join(', '),
    table: ['', '', ...toolsetTable(tools, (t) => `\`${t.name}\``), '', ''].join('\n'),
  };
}

/** The README with every marked part written anew; a marker the generator does not know is an error. */
export function renderReadme(text: string, tools: readonly ToolDef[]): string {
  const parts = readmeParts(tools);
  return text.replace(MARKED, (whole, name: string, _old: string) => {
    const part = parts[name];
    if (part === undefined) throw new Error(`README: no generator for <!-- tools:${name} -->`);
    return whole.replace(/-->[\s\S]*<!--/, `-->${part}<!--`);
  });
}

/** The README without its marked parts: what people write by hand. */
export function handWritten(text: string): string {
  return text.replace(MARKED, '');
}
