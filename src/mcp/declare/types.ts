import type { z } from 'zod';
import type { Endpoint, ToolEndpointName, Toolset } from '../../api/endpoints.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from '../view/output.js';

// How a tool is declared (ToolSpec) and what the registry holds (ToolDef): types only, so the
// server's parts can name a tool without importing one another. What a tool returns is the
// view's ToolOutput (view/output.ts).

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
  readonly run?: (ctx: ToolContext, args: A) => Promise<ToolOutput>;
  /** A consequential write: the person confirms it first when the client can ask (--confirm). */
  readonly confirm?: ConfirmSpec<A>;
  /** A write: what it did, in words its answer starts with ("created", "marked read"). */
  readonly did?: string;
  /** A write over one lead that takes lead_ids too (declare/batch.ts). */
  readonly batch: boolean;
  /** The ui:// resource a host that renders MCP Apps shows beside this tool's result (src/mcp/desk/). */
  readonly desk?: string;
}

export interface ToolSpec<A extends Record<string, unknown>> {
  /** A tool endpoint of the table (src/api/table/); also the tool's name. A name not in the table does not compile. */
  endpoint: ToolEndpointName;
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
  /** A write: what it did, as its answer says it ("created", "marked read", "deleted"). */
  did?: string;
  /** Takes lead_ids (up to 50) as well as lead_id: the same write for each lead, one answer. Needs `run` and `did`. */
  batch?: boolean;
  /** The ui:// resource of the reply desk that shows this tool's result (src/mcp/desk/constants.ts). */
  desk?: string;
}

/**
 * A tool's consequential writes, declared with the tool: which arguments make a call one, and
 * what it changes in our own words. Only ids (validated) and enum values may enter `change`.
 */
// biome-ignore lint/suspicious/noExplicitAny: as for ToolDef, a tool's own spec types its arguments
export interface ConfirmSpec<A = Record<string, any>> {
  /** These arguments make the call consequential; absent: every call does. */
  when?: (args: A) => boolean;
  /** `when` in words, for the tool reference, e.g. "when status is unsubscribed or dnc". */
  asks?: string;
  /**
   * Exactly what the call changes, from what it is now, one sentence, e.g. "Its status changes from
   * interested to unsubscribed: …". `now` is the record as read for the question (the lead, task
   * or meeting), null when it could not be read or the call names many leads.
   */
  change: (args: A, now: Record<string, unknown> | null) => string;
}
