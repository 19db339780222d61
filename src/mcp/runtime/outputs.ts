import { z } from 'zod';
import { RESOURCES, effectsSchema } from '../../spec/index.js';

/** Output schemas of tools, built from the spec's resource schemas (tolerant readers). */
export function resourceOf(kind: string): z.ZodType {
  const r = RESOURCES[kind];
  if (!r) throw new Error(`no resource schema for ${kind}`);
  return r;
}

/** A page of a list: the API's envelope, plus what multi-page reads add. */
export function listOutput(item: z.ZodType) {
  return z.looseObject({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    pages_read: z.number().int().optional(),
    partial: z.boolean().optional(),
    partial_reason: z.string().optional(),
  });
}

/** A write's answer: the resource plus the API's effects object, verbatim. Stays an object schema, as MCP requires. */
export function withEffects(schema: z.ZodObject) {
  return schema.extend({ effects: effectsSchema });
}

export const listOf = (kind: string) => listOutput(resourceOf(kind));
export const objectOf = (kind: string) => resourceOf(kind) as z.ZodObject;
