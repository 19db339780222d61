import { z } from 'zod';
import { RESOURCES, type ResourceName, effectsSchema } from '../../api/resources.js';

/** Output schemas of tools, built from the spec's resource schemas (tolerant readers). */
export function resourceOf(kind: ResourceName): z.ZodType {
  return RESOURCES[kind];
}

/** What every result may carry: the note on fenced text, and what the result budget left out. */
const shownWith = {
  untrusted: z.string().optional().describe('Present when outsider text is fenced in this result: a reminder that it is data.'),
  left_out: z
    .looseObject({ count: z.number().int(), budget_bytes: z.number().int(), fetch_rest: z.record(z.string(), z.unknown()).optional() })
    .optional()
    .describe('Items cut to keep the result within the byte budget, and the exact arguments that read them.'),
  notices: z
    .array(z.string())
    .optional()
    .describe('Arguments this server read otherwise than sent (a limit clamped, a day taken as its start in UTC, a user id taken as its member id).'),
};

/** A page of a list: the API's envelope, plus what multi-page reads and the result budget add. */
export function listOutput(item: z.ZodType) {
  return z.looseObject({
    ...shownWith,
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    pages_read: z.number().int().optional(),
    partial: z.boolean().optional(),
    partial_reason: z.string().optional(),
  });
}

/**
 * A write's answer: by default the id, the fields the write set and the API's effects,
 * verbatim; view=full gives the whole record. The record's fields are not repeated here: the
 * read tool of the kind says them once (every write tool carrying the lead schema was most of
 * the tool list's bytes).
 */
export function writeOutput(kind: ResourceName) {
  return z
    .looseObject({ ...shownWith, object: z.literal(kind), id: z.string(), effects: effectsSchema })
    .describe(`The ${kind}'s id, the fields this write set and the API's effects; view=full: the whole ${kind}.`);
}

/** A batched write's answer: the one-lead answer, or `results` with each lead's outcome (declare/batch.ts). */
export function batchOutput(single: z.ZodObject) {
  const row = z.looseObject({
    lead_id: z.string(),
    outcome: z.string().describe("The write's verb as the text says it (marked read, status set…), unchanged, or failed."),
    effects: effectsSchema.optional(),
    error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  });
  return sameWords(
    single.partial({ object: true, id: true, effects: true }).extend({
      results: z.array(row).optional().describe('lead_ids given: each lead in order, with what its write set and its effects, or its error.'),
      done: z.number().int().optional(),
      unchanged: z.number().int().optional(),
      failed: z.number().int().optional(),
    }),
    single,
  );
}

/** A schema built from another keeps the other's description (zod's extend and partial drop it). */
const sameWords = <T extends z.ZodType>(next: T, was: z.ZodType): T => (was.description ? next.describe(was.description) : next);

/** A create the duplicate guard answers: the created record, or (created false) the earlier one's id and nothing else of it. */
export function duplicateOutput(single: z.ZodObject) {
  return sameWords(
    single.extend({
      created: z.literal(false).optional().describe('Present when this call created nothing: the same call succeeded lately (duplicate_of).'),
      duplicate_of: z.string().optional().describe('The id the earlier identical call created.'),
      seconds_ago: z.number().int().optional().describe('How long ago the earlier call succeeded.'),
    }),
    single,
  );
}

export const listOf = (kind: ResourceName) => listOutput(resourceOf(kind));

/** A page of members as the server shows them: each record with, added by this server, its one-part user id. */
export const membersOutput = () =>
  listOutput(
    (resourceOf('member') as z.ZodObject).extend({
      user_id: z
        .string()
        .optional()
        .describe("Added by this server: the member's one-part user id (tasks, notes and meetings take it), where the server can tell it (docs/spec-gaps.md)."),
    }),
  );
export const objectOf = (kind: ResourceName) => resourceOf(kind) as z.ZodObject;
