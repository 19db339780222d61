import { endpoint } from '../../src/spec/index.js';
import { splitArgs } from '../../src/mcp/runtime/call.js';
import type { ToolContext } from '../../src/mcp/runtime/tool-context.js';
import { leadLines, leadPageText } from './lead-text.js';
import { UNTRUSTED_NOTE } from '../../src/mcp/view/fence.js';
import { textOf } from '../../src/mcp/view/shape.js';
import type { ToolOutput } from '../../src/mcp/runtime/tool.js';

interface ViewArgs {
  view?: 'compact' | 'full';
  fields?: string[];
  expand?: string[];
  include?: string[];
}

/**
 * Keep the chosen fields (and whatever was expanded on request). Empty values are left
 * out at the lead's own level only: embedded records (assignees, tasks…) stay whole, as
 * their schemas say.
 */
function project(item: Record<string, unknown>, keep: ReadonlySet<string> | null): Record<string, unknown> {
  if (!keep) return item;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (!keep.has(k) || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * A read whose rows are shaped for a context window: the default fields a decision needs,
 * `fields` for exactly others, `view: "full"` for the API's record as is.
 */
export async function runProjected(
  ctx: ToolContext,
  name: string,
  args: Record<string, unknown> & ViewArgs,
  opts: { kind: string; defaults: readonly string[] },
): Promise<ToolOutput> {
  const e = endpoint(name);
  const { view, fields, ...rest } = args;
  const { path, query, body } = splitArgs(e, rest, ctx.workspace(args as { workspace?: string }));
  const r = await ctx.api.call(name, { path, query, body, signal: ctx.signal });
  const keep =
    fields !== undefined
      ? new Set(['object', 'id', ...fields])
      : view === 'full'
        ? null
        : new Set(['object', ...opts.defaults, ...(args.expand ?? []), ...(args.include ?? [])]);
  const data = r.data as Record<string, unknown>;
  const structured =
    e.returns === 'list'
      ? { ...data, data: (data.data as Record<string, unknown>[]).map((item) => project(item, keep)) }
      : project(data, keep);
  // The default view of plain lead rows reads best as lines; anything else stays JSON.
  const lines = opts.kind === 'lead' && fields === undefined && view !== 'full' && !args.expand?.length && !args.include?.length;
  if (!lines) return { structured, text: textOf(structured, ctx.fence) };
  const text =
    e.returns === 'list'
      ? leadPageText(structured as { data: Record<string, unknown>[]; has_more?: boolean; next_cursor?: string | null }, ctx.fence)
      : `${UNTRUSTED_NOTE}\n${leadLines(structured as Record<string, unknown>, ctx.fence)}`;
  return { structured, text };
}
