import type { ApiAnswer, ToolContext } from './tool-context.js';
import { splitArgs } from './split-args.js';

type Row = Record<string, unknown>;

/** A JSON answer's fields: every JSON row of the table answers an object (its return schema, checked before a tool sees it). */
export function isFields(data: unknown): data is Row {
  return data !== null && typeof data === 'object' && !Array.isArray(data) && !(data instanceof Uint8Array);
}

/**
 * The tool's own endpoint (ctx.endpoint) called with the tool's arguments split by the table
 * into path, query and body; `own` names arguments that are the tool's, not the endpoint's.
 * Its answer is a record of fields: a row that answers a file is called with ctx.api.call.
 */
export async function callOwn(ctx: ToolContext, args: Row, own: readonly string[] = []): Promise<ApiAnswer<Row>> {
  const e = ctx.endpoint;
  const ws = 'workspace' in e.pathIds ? ctx.workspace(args) : null;
  const r = await ctx.api.send(e.name, { ...splitArgs(e, args, ws, own), signal: ctx.signal });
  if (!isFields(r.data)) throw new TypeError(`${e.name} answers no record of fields`);
  return { ...r, data: r.data };
}
