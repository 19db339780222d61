import { readFileSync, readdirSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * The bundle's maps ship without the sources' text, and still turn a line of the binary or of
 * a hashed chunk back into the line of src/ it came from: what `--enable-source-maps` does to
 * a user's stack trace (docs/deploy.md).
 */
const CLI = join(ROOT, 'dist/src/cli');
const outputs = [
  'mcp.js',
  ...readdirSync(join(CLI, 'chunks'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `chunks/${f}`),
];

/** Where `needle` stands in the output file, mapped back through its shipped map. */
function original(file: string, needle: string): { source: string; line: number } | null {
  const lines = readFileSync(join(CLI, file), 'utf8').split('\n');
  const row = lines.findIndex((l) => l.includes(needle));
  if (row < 0) return null;
  const map = JSON.parse(readFileSync(join(CLI, `${file}.map`), 'utf8')) as SourceMapPayload;
  const entry = new SourceMap(map).findEntry(row, lines[row]!.indexOf(needle)) as { originalSource?: string; originalLine?: number };
  return entry.originalSource ? { source: entry.originalSource, line: entry.originalLine! + 1 } : null;
}

/** The 1-based line of `needle` in a source file of the repository. */
const lineIn = (file: string, needle: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

describe('the binary and its chunks come with maps that hold no source text', () => {
  it.each(outputs)('%s links its map, which names only files of src/, tools/ or a bundled package and carries no sourcesContent', (file) => {
    expect(readFileSync(join(CLI, file), 'utf8')).toContain(`//# sourceMappingURL=${file.split('/').pop()}.map`);
    const map = JSON.parse(readFileSync(join(CLI, `${file}.map`), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sourcesContent).toBeUndefined();
    expect(map.sources.filter((s) => !/^(\.\.\/)+((src|tools)\/.+\.ts|(.+\/)?node_modules\/.+)$/.test(s))).toEqual([]);
  });

  it('a line of the binary maps back to the TypeScript line it came from', () => {
    const needle = '--semi-space-growth-factor=1';
    expect(original('mcp.js', needle)).toEqual({ source: expect.stringMatching(/\/src\/cli\/v8-flags\.ts$/), line: lineIn('src/cli/v8-flags.ts', needle) });
  });

  it('a line of a hashed chunk maps back too (the live watcher, in the server chunk or the binary)', () => {
    const needle = 'watch: poll delayed by its read budget';
    const found = outputs.map((f) => original(f, needle)).find((o) => o !== null);
    expect(found).toEqual({ source: expect.stringMatching(/\/src\/mcp\/live\/inbox-watch\.ts$/), line: lineIn('src/mcp/live/inbox-watch.ts', needle) });
  });
});
