import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Endpoint, type Toolset, endpoint as endpointByName, idSchema, workspaceSchema } from '../../spec/index.js';
import { MULTI_PAGE_ARGS, isMultiPage } from './multipage.js';
import { PARAM_DOCS } from './param-docs.js';
import { DUPLICATE_ARGS, isGuardedCreate } from './duplicate-guard.js';
import { userOrMemberId } from './user-ids.js';
import type { ConfirmSpec } from '../confirm/confirm.js';

/**
 * What a tool returns before result shaping: the data for structuredContent, as the API or
 * the tool's view gives it (the server fences outsider text in it), and how to write the
 * text a model reads. Without `text` or `render`, the text is the fenced JSON.
 */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text?: string;
  /** The text from (a cut of) the structured data; the result budget re-renders with it. */
  render?: (structured: Record<string, unknown>, fence: import('../view/fence.js').Fence, own?: ReadonlySet<string>) => string;
  /** The agent's own words this result carries back (overrides rendered into a draft): not fenced. */
  own?: readonly string[];
  /** The record kind of compact records that leave out their `object` field. */
  kind?: string;
  /** The list the result budget may cut, and which end it keeps. Default: `data`, first items kept. */
  items?: {
    key: string;
    keep: 'head' | 'tail';
    /** The arguments that read what a cut left out, when they are not a cursor. */
    rest?: (shown: number, total: number) => Record<string, unknown> | null;
  };
  /** More content after the text copy: resource links that save the model a call, an embedded file. */
  extraContent?: ContentBlock[];
}

/** A tool, declared as data. The registration loop does everything tools share. */
// biome-ignore lint/suspicious/noExplicitAny: a tool's arguments are typed by its own spec; the registry holds any
export interface ToolDef<A extends Record<string, unknown> = Record<string, any>> {
  readonly name: string;
  readonly endpoint: Endpoint;
  readonly toolset: Toolset;
  readonly title: string;
  /** For a model: what it does, when to use it, what to call first, what it costs and changes. */
  readonly description: string;
  /** The published, strict input schema (endpoint params + the tool's own extras). */
  readonly input: z.ZodObject;
  readonly output: z.ZodType;
  /** Args that are the tool's own, not the endpoint's (view, fields, format, max_items…). */
  readonly extraArgs: readonly string[];
  /** A pageable list read: it takes max_items and all, and the server pages for it. */
  readonly multiPage: boolean;
  /** A create that is not idempotent: it takes allow_duplicate, and the server catches repeats. */
  readonly guarded: boolean;
  /** Arguments that take a one-part user id; a member id passes too and the server maps it. */
  readonly userIds: readonly string[];
  readonly run?: (ctx: import('./tool-context.js').ToolContext, args: A) => Promise<ToolOutput>;
  /** A consequential write: the person confirms it first when the client can ask (--confirm). */
  readonly confirm?: ConfirmSpec<A>;
}

export interface ToolSpec<A extends Record<string, unknown>> {
  /** Endpoint name in src/spec/endpoints.ts; also the tool's name. */
  endpoint: string;
  title: string;
  description: string;
  output: z.ZodType;
  /** Argument descriptions that differ from PARAM_DOCS. */
  docs?: Record<string, string>;
  /** Arguments beyond the endpoint's own. */
  extra?: z.ZodRawShape;
  /** Argument schema overrides (e.g. a narrower type for a model). */
  override?: z.ZodRawShape;
  /** Arguments that take a one-part user id (the API's task, note and meeting people). */
  userIds?: readonly string[];
  run?: ToolDef<A>['run'];
  confirm?: ConfirmSpec<A>;
}

/** Build the strict input schema from the endpoint table: path ids, query params, body fields. */
// biome-ignore lint/suspicious/noExplicitAny: only the docs of the spec are read, whatever its arguments
export function inputSchemaFor(e: Endpoint, spec: Pick<ToolSpec<any>, 'docs' | 'extra' | 'override'>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  const doc = (name: string) => spec.docs?.[name] ?? PARAM_DOCS[name];
  for (const [name, kind] of Object.entries(e.pathIds)) {
    if (kind === 'workspace') shape[name] = workspaceSchema.optional();
    else shape[name] = idSchema(kind);
  }
  for (const [name, param] of Object.entries(e.query)) shape[name] = (param.input as z.ZodType).optional();
  if (e.body && e.body instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(e.body.shape as Record<string, z.ZodType>)) shape[name] = field;
  }
  Object.assign(shape, spec.override ?? {}, spec.extra ?? {});
  for (const [name, schema] of Object.entries(shape)) {
    const d = doc(name);
    if (d) shape[name] = schema.describe(d);
  }
  return z.strictObject(shape);
}

// biome-ignore lint/suspicious/noExplicitAny: as for ToolDef
export function defineTool<A extends Record<string, unknown> = Record<string, any>>(spec: ToolSpec<A>): ToolDef<A> {
  const e = endpointByName(spec.endpoint);
  if (!e.toolset) throw new Error(`${spec.endpoint} is not a tool endpoint`);
  // Every pageable list gets the same multi-page arguments here, and every create that is not
  // idempotent its allow_duplicate, never by hand per tool.
  const multiPage = isMultiPage(e);
  const guarded = isGuardedCreate(e);
  const extra = { ...(spec.extra ?? {}), ...(multiPage ? MULTI_PAGE_ARGS : {}), ...(guarded ? DUPLICATE_ARGS : {}) };
  return {
    name: e.name,
    endpoint: e,
    toolset: e.toolset,
    title: spec.title,
    description: spec.description,
    input: inputSchemaFor(e, {
      ...spec,
      extra,
      override: { ...spec.override, ...Object.fromEntries((spec.userIds ?? []).map((a) => [a, userOrMemberId.optional()])) },
    }),
    output: spec.output,
    extraArgs: Object.keys(extra),
    multiPage,
    guarded,
    userIds: spec.userIds ?? [],
    run: spec.run,
    confirm: spec.confirm,
  };
}
