import { z } from 'zod';
import { idSchema } from '../../api/ids.js';
import { errorBody } from '../errors.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from '../view/output.js';
import { UNCHANGED, recordsNoChange } from '../view/unchanged.js';

type Row = Record<string, unknown>;

/** The most leads one batched write takes: a minute of the write budget is 60. */
export const MAX_BATCH = 50;
/** Requests of one batch in flight at once; the limiter paces them further. */
const IN_FLIGHT = 4;

/** The argument a batched write takes besides its path id: the same write for each of these leads. */
export const BATCH_ARGS = {
  lead_ids: z.array(idSchema('lead')).min(1).max(MAX_BATCH).optional(),
} as const;
/** What lead_ids means on a batched write, as its schema says it. */
export const BATCH_DOC = `Up to ${MAX_BATCH}, instead of lead_id.`;

/** A batched write is given lead_id or lead_ids, never both and never neither: said before anything is sent. */
export function oneOfLeadArgs(args: { lead_id?: unknown; lead_ids?: unknown }, ctx: z.RefinementCtx): void {
  if (args.lead_id !== undefined && args.lead_ids !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['lead_ids'], message: 'pass lead_id or lead_ids, not both', params: { request: true } });
  } else if (args.lead_id === undefined && args.lead_ids === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['lead_id'],
      message: `is required: pass lead_id, or lead_ids for up to ${MAX_BATCH} leads`,
      params: { request: true },
    });
  }
}

/**
 * One lead's outcome in a batch: the write's own answer (fields set, effects verbatim) or its error,
 * and what happened in the words the text uses: the write's verb ("marked read"), unchanged, or failed.
 */
export type BatchRow = Row & { lead_id: string; outcome: string };

/** The outcome word of a lead whose write was answered: its verb, or unchanged when the API's effects record no change. */
const answered = (did: string, effects: unknown) => (recordsNoChange(effects) ? 'unchanged' : did);

/** The leads of a batch, each once, in the order given. */
const distinct = (ids: readonly string[]) => [...new Set(ids)];

/** Run `work` over `items`, at most `n` at once, answers in the order of `items`. */
async function pool<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/**
 * A write over one lead, made to take lead_ids too: one request per lead (each through the
 * client's limiter), one answer listing every lead's outcome. A lead that fails does not stop
 * or hide the others; what it failed with is its row.
 */
export function batched<A extends Row>(tool: string, did: string, run: (ctx: ToolContext, args: A) => Promise<ToolOutput>) {
  return async (ctx: ToolContext, args: A): Promise<ToolOutput> => {
    const ids = args.lead_ids;
    if (!Array.isArray(ids)) return run(ctx, args);
    const { lead_ids: _, ...rest } = args;
    let keep: readonly string[] | undefined;
    const rows = await pool(distinct(ids as string[]), IN_FLIGHT, async (lead_id): Promise<BatchRow> => {
      try {
        const answer = await run(ctx, { ...rest, lead_id } as unknown as A);
        keep = answer.keep;
        const one = answer.structured;
        const { object: _o, id: _i, ...fields } = one;
        return { lead_id, outcome: answered(did, fields.effects), ...fields };
      } catch (err) {
        const body = errorBody(err, tool);
        return { lead_id, outcome: 'failed', error: { code: body.error.code, message: body.error.message }, next_step: body.next_step };
      }
    });
    const failed = rows.filter((r) => r.outcome === 'failed').length;
    const unchanged = rows.filter((r) => r.outcome === 'unchanged').length;
    // A count of 0 says nothing and is left out, as the text leaves it out.
    const structured = { results: rows, done: rows.length - failed, ...(unchanged ? { unchanged } : {}), ...(failed ? { failed } : {}) };
    return { structured, ...(keep ? { keep } : {}), render: (s) => batchLines(tool, did, s) };
  };
}

/** A cell of the table: plain values as they are, anything else as JSON, on one line with no column break. */
function cell(v: unknown): string {
  if (v === undefined) return '';
  const plain = typeof v === 'string' ? v : JSON.stringify(v);
  return plain.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The batch as one table: a row per lead with what its write set and its effects verbatim, or why it failed. */
export function batchLines(tool: string, did: string, s: Row): string {
  const rows = (s.results ?? []) as BatchRow[];
  const done = rows.filter((r) => r.outcome !== 'failed');
  const failed = rows.length - done.length;
  const fields = [...new Set(done.flatMap((r) => Object.keys(r)))].filter((k) => !['lead_id', 'outcome', 'effects'].includes(k));
  const cols = ['lead_id', 'outcome', ...fields, 'effects'];
  const line = (r: BatchRow) =>
    r.outcome !== 'failed'
      ? `| ${cols.map((k) => cell(r[k])).join(' | ')} |`
      : `| ${r.lead_id} | failed: ${cell((r.error as Row).code)} | ${cell(`${(r.error as Row).message} ${r.next_step}`)}${' |'.repeat(cols.length - 2)}`;
  const same = done.filter((r) => r.outcome === 'unchanged').length;
  const head = `${tool}: ${done.length - same} of ${rows.length} lead${rows.length === 1 ? '' : 's'} ${did}${same ? `; ${same} ${UNCHANGED}` : ''}${failed ? `; ${failed} failed, each with its reason` : ''}.`;
  return [head, `| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
