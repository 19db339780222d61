import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { annotationsFor } from './annotations.js';
import type { ToolDef } from './define.js';
import { outlineSchema } from './outline.js';
import { PARAM_DOCS } from './param-docs.js';
import { portableSchema } from './portable.js';
import { MULTI_PAGE_ARGS } from './shared-args.js';

/** A tool as tools/list publishes it. */
export type PublishedTool = Tool & {
  title: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  outputSchema: NonNullable<Tool['outputSchema']>;
  annotations: NonNullable<Tool['annotations']>;
};

/**
 * What the server checks itself and states in its error (id prefixes, lengths, counts and
 * ranges, the values of a long list) is left out of the published input schema: every turn
 * of a conversation pays for the bytes of the tool list, and the descriptions and the
 * server's instructions say the shape once.
 */
const CHECKED_HERE = ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'propertyNames'] as const;
/** Enums longer than this (the lead field names) are checked, not listed. */
const LISTED_VALUES = 12;

function lean(ctx: { jsonSchema: Record<string, unknown> }): void {
  const s = ctx.jsonSchema;
  for (const k of CHECKED_HERE) delete s[k];
  if (Array.isArray(s.enum) && s.enum.length > LISTED_VALUES) delete s.enum;
}

/**
 * Arguments whose meaning the server instructions state once for every tool (workspace, the
 * paging ones, and an x_id that takes an id of kind x): published without their shared
 * description, which would otherwise be repeated in up to 43 tools. A tool's own description
 * of one of them stays.
 */
export const SAID_ONCE: Readonly<Record<string, string | undefined>> = {
  workspace: PARAM_DOCS.workspace,
  limit: PARAM_DOCS.limit,
  cursor: PARAM_DOCS.cursor,
  order: PARAM_DOCS.order,
  max_items: MULTI_PAGE_ARGS.max_items.description,
  all: MULTI_PAGE_ARGS.all.description,
  lead_id: PARAM_DOCS.lead_id,
  task_id: PARAM_DOCS.task_id,
  meeting_id: PARAM_DOCS.meeting_id,
  event_type_id: PARAM_DOCS.event_type_id,
  template_id: PARAM_DOCS.template_id,
};

function withoutSharedDocs(schema: Record<string, unknown>): Record<string, unknown> {
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!props) return schema;
  const lean = Object.entries(props).map(([name, p]) => {
    if (p.description === undefined || p.description !== SAID_ONCE[name]) return [name, p] as const;
    const { description: _, ...rest } = p;
    return [name, rest] as const;
  });
  return { ...schema, properties: Object.fromEntries(lean) };
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', override?: typeof lean): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, ...(override ? { override } : {}) }) as Record<string, unknown>;
  return portableSchema(rest) as Record<string, unknown>;
}

/** The input schema as the server checks it, every bound included (for the people's reference). */
export function checkedInputSchema(t: ToolDef): Record<string, unknown> {
  return jsonSchemaOf(t.input, 'input');
}

/** The output schema as the server checks its own results, every field included (for the people's reference). */
export function checkedOutputSchema(t: ToolDef): Record<string, unknown> {
  return jsonSchemaOf(t.output, 'output');
}

/** Each tool is converted once, at its first listing: tools/list then costs no schema work. */
const cache = new WeakMap<ToolDef, PublishedTool>();

/**
 * Every tool's published form as the bundled binary's build computed it (scripts/build-bin.ts
 * puts the JSON text here), so its first tools/list converts no schema either; undefined when
 * running the modules tsc emitted or the sources.
 */
declare const REPLY_INBOX_PUBLISHED_TOOLS: string | undefined;
let built: Record<string, PublishedTool> | null | undefined;

function fromBuild(t: ToolDef): PublishedTool | undefined {
  if (built === undefined) {
    built = typeof REPLY_INBOX_PUBLISHED_TOOLS === 'string' ? (JSON.parse(REPLY_INBOX_PUBLISHED_TOOLS) as Record<string, PublishedTool>) : null;
  }
  const p = built?.[t.name];
  // Only for the tool it was built from, as far as its title and description tell.
  return p && p.title === t.title && p.description === t.description ? p : undefined;
}

/** The published form of a tool, as tools/list gives it. */
export function publishedTool(t: ToolDef): PublishedTool {
  let p = cache.get(t);
  if (!p) {
    p = fromBuild(t) ?? {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: withoutSharedDocs(jsonSchemaOf(t.input, 'input', lean)) as PublishedTool['inputSchema'],
      outputSchema: outlineSchema(jsonSchemaOf(t.output, 'output')) as PublishedTool['outputSchema'],
      annotations: annotationsFor(t.endpoint, t.title),
    };
    cache.set(t, p);
  }
  return p;
}
