import { z } from 'zod';
import { effectsSchema } from '../../src/api/resources.js';
import { isFields, type ToolContext, type ToolOutput } from '../../src/mcp/tool-kit.js';
import { runPlain } from './project.js';

type Row = Record<string, unknown>;

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const listed = (v: string[]) => (v.length ? v.join(', ') : 'none');
const effectsLine = (s: Row) => `effects: ${JSON.stringify(s.effects ?? {})}`;

/** The answer of a set write: the lead, its whole set by id and name, and the API's effects verbatim. */
export function setOutput(key: string) {
  return z.looseObject({
    object: z.literal('lead'),
    id: z.string(),
    [key]: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })).describe(`The lead's ${key} now, by id and name (absent: none).`),
    effects: effectsSchema,
  });
}

/** The records of a list field (a page's data, a set's members). */
const rowsOf = (v: unknown): Row[] => (Array.isArray(v) ? v.filter(isFields) : []);

/**
 * A write that replaces a lead's whole set (assignees, tags): the answer says the set it now
 * is, by id and name, and what was added and removed, then the API's effects verbatim. The
 * set is kept in both forms even when empty: that is what the write set.
 */
export function runSetOf(key: string, added: string, removed: string) {
  return async (ctx: ToolContext, args: Row): Promise<ToolOutput> => {
    const data = (await runPlain(ctx, args)).structured;
    // A member without a name is shown by id alone, in both forms: a null is left out of both.
    const items = rowsOf(data.data).map((r) => ({ id: r.id, ...(typeof r.name === 'string' && r.name ? { name: r.name } : {}) }));
    const structured: Row = { object: 'lead', id: args.lead_id, [key]: items, effects: data.effects };
    const render = (s: Row) => {
      const now = rowsOf(s[key]).map((r) => (typeof r.name === 'string' && r.name ? `${r.id} (${r.name})` : String(r.id)));
      const e = isFields(s.effects) ? s.effects : {};
      const head = `${ctx.endpoint.name}: lead ${String(s.id)} ${ctx.did}: ${key} now ${listed(now)}; added ${listed(ids(e[added]))}; removed ${listed(ids(e[removed]))}.`;
      return [head, effectsLine(s)].join('\n');
    };
    return { structured, keep: [key], render };
  };
}

/** set_priority's answer: which leads are now starred or unstarred, which of them changed, then the effects verbatim. */
export async function runPriority(ctx: ToolContext, args: Row): Promise<ToolOutput> {
  const out = await runPlain(ctx, args);
  const render = (s: Row) => {
    const all = ids(s.lead_ids);
    const changed = ids(isFields(s.effects) ? s.effects.lead_priorities_changed : undefined);
    const already = all.filter((id) => !changed.includes(id));
    const star = s.priority === true ? 'starred' : 'unstarred';
    const n = `${all.length} lead${all.length === 1 ? '' : 's'}`;
    const counts = `matched_count=${String(s.matched_count)} updated_count=${String(s.updated_count)} workspace=${String(s.workspace)}`;
    const head = `${ctx.endpoint.name}: ${n} ${ctx.did}: ${star} for you ${listed(all)}; changed ${listed(changed)}; already ${star} ${listed(already)}. ${counts}`;
    return [head, effectsLine(s)].join('\n');
  };
  return { ...out, render };
}
