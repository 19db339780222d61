import { type Fence, type ToolOutput, textOf } from '../../src/mcp/tool-kit.js';

type Row = Record<string, unknown>;

/** Lists of sentences after the text form of a result: each list labelled with its field, a sentence a line. */
function sentenceLines(s: Row, keys: readonly string[]): string[] {
  return keys.flatMap((k) => {
    const v = s[k];
    return Array.isArray(v) && v.length ? [`${k}:`, ...v.map((n) => `- ${String(n)}`)] : [];
  });
}

/**
 * A result with lists of sentences added (what its figures leave out, what its filters match), in
 * both forms: structuredContent carries each list by its field, a text of lines ends with the same
 * sentences under the same labels, and a text of JSON carries them in its JSON. Empty lists add nothing.
 */
export function withSentences(out: ToolOutput, lists: Record<string, string[]>): ToolOutput {
  const keys = Object.keys(lists).filter((k) => lists[k]!.length > 0);
  if (keys.length === 0) return out;
  const render = out.render;
  const keep = out.keep ? new Set(out.keep) : undefined;
  return {
    ...out,
    structured: { ...out.structured, ...Object.fromEntries(keys.map((k) => [k, lists[k]])) },
    render: (s: Row, fence: Fence, own?: ReadonlySet<string>) =>
      render ? [render(s, fence, own), ...sentenceLines(s, keys)].join('\n') : textOf(s, fence, own, keep),
  };
}
