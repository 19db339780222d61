import { z } from 'zod';
import { callOwn, isFields, type ToolContext, writeLines, type ToolOutput } from '../../src/mcp/tool-kit.js';

type Row = Record<string, unknown>;

const isEmptyValue = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/** The argument that chooses a write's answer. */
export const WRITE_VIEW = {
  view: z.enum(['compact', 'full']).optional().describe('Default compact.'),
};

/**
 * A write whose answer is what an agent needs to go on: the record's id, the fields the
 * write set (`changed`, read back from the record) and the API's effects with every key.
 * view=full answers with the whole record instead. The endpoint is the tool's own (ctx.endpoint).
 */
export function runWrite(changed: readonly string[]) {
  return async (ctx: ToolContext, args: Row): Promise<ToolOutput> => {
    const { view, ...rest } = args;
    const name = ctx.endpoint.name;
    const data = (await callOwn(ctx, rest)).data;
    if (view === 'full') return { structured: data };
    const structured: Row = { object: data.object, id: data.id };
    // A null or empty field is left out of both forms, unless this call set it (a cleared due day is shown as null)
    // or the API says the call changed it (clearing a due day clears its due time too: task_fields_changed).
    const changedByApi = Object.entries(isFields(data.effects) ? data.effects : {}).flatMap(([k, v]) =>
      k.endsWith('_fields_changed') && Array.isArray(v) ? v : [],
    );
    const keep = changed.filter((k) => k in rest || changedByApi.includes(k));
    for (const k of changed) if (k in data && (keep.includes(k) || !isEmptyValue(data[k]))) structured[k] = data[k];
    structured.effects = data.effects;
    return { structured, keep, render: (s, fence, own) => writeLines(name, s, fence, own, ctx.did) };
  };
}
