import { callOwn, isFields, type ToolContext, oneLines, pageTable, type ToolOutput } from '../../src/mcp/tool-kit.js';
import { COMPACT, type CompactKind } from './compact.js';

interface ViewArgs {
  view?: 'compact' | 'full';
  fields?: string[];
  expand?: string[];
  include?: string[];
}

type Row = Record<string, unknown>;

/** A page's items: records, as the list's return schema reads them. */
const rowsOf = (page: Row): Row[] => (Array.isArray(page.data) ? page.data.filter(isFields) : []);

/** Keep the chosen fields, null or empty as they may be: a field asked for is shown (both forms keep it). */
function pick(item: Row, keep: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(item)) if (keep.has(k) && v !== undefined) out[k] = v;
  return out;
}

/** The tool's endpoint called with the arguments as given, its answer as the result. */
export async function runPlain(ctx: ToolContext, args: Row): Promise<ToolOutput> {
  return { structured: (await callOwn(ctx, args)).data };
}

/**
 * A read whose records are shaped for a context window: the kind's compact view by default
 * (with whatever was expanded or included on request), `fields` for exactly others,
 * `view: "full"` for the API's record as is. The endpoint is the tool's own (ctx.endpoint).
 */
export async function runProjected(ctx: ToolContext, args: Row & ViewArgs, kind: CompactKind): Promise<ToolOutput> {
  const e = ctx.endpoint;
  const { view, fields, ...rest } = args;
  const data = (await callOwn(ctx, rest)).data;
  const compact = view !== 'full' && fields === undefined;
  const extras = [...(args.expand ?? []), ...(args.include ?? [])];
  // Embedded records carry outsider text of their own: they read as fenced JSON, not as lines.
  const lines = compact && extras.length === 0;
  const shape = (item: Row): Row => {
    if (fields !== undefined) return pick(item, new Set(['object', 'id', ...fields]));
    if (!compact) return item;
    const c = COMPACT[kind].project(item);
    for (const k of extras) if (item[k] !== undefined && item[k] !== null) c[k] = item[k];
    return c;
  };
  const keep = fields !== undefined ? { keep: fields } : {};
  if (e.returns !== 'list') {
    const structured = shape(data);
    return { structured, kind, ...keep, render: lines ? (s, fence) => oneLines(s, fence, kind) : undefined };
  }
  const structured = { ...data, data: rowsOf(data).map(shape) };
  const noun = COMPACT[kind].noun;
  return {
    structured,
    kind,
    ...keep,
    render: lines ? (s, fence) => pageTable(s as { data: Row[] }, fence, noun, kind) : undefined,
    items: { key: 'data', keep: 'head' },
  };
}
