import type { ContentBlock } from '@modelcontextprotocol/server';
import type { Fence } from './fence.js';

/**
 * What a tool returns before result shaping: the data for structuredContent, as the API or
 * the tool's view gives it (the server fences outsider text in it), and how to write the
 * text a model reads. Without `text` or `render`, the text is the fenced JSON.
 */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text?: string;
  /** The text from (a cut of) the structured data; the result budget re-renders with it. */
  render?: (structured: Record<string, unknown>, fence: Fence, own?: ReadonlySet<string>) => string;
  /** The agent's own words this result carries back (overrides rendered into a draft): not fenced. */
  own?: readonly string[];
  /** Fields shown even when null or empty, in both forms: asked for in `fields`, or set by a write. */
  keep?: readonly string[];
  /** The record kind of compact records that leave out their `object` field. */
  kind?: string;
  /** The list the result budget may cut, and which end it keeps. Default: `data`, first items kept. */
  items?: {
    key: string;
    keep: 'head' | 'tail';
    /** The arguments that read what a cut left out, when they are not a cursor. */
    rest?: (shown: number, total: number) => Record<string, unknown> | null;
    /** The structured data with only `kept` items, when other fields describe the list (counts, a continuation). */
    cut?: (structured: Record<string, unknown>, kept: number) => Record<string, unknown>;
  };
  /** More content after the text copy: resource links that save the model a call, an embedded file. */
  extraContent?: ContentBlock[];
}
