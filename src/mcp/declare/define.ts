import { z } from 'zod';
import { type Endpoint, endpoint as endpointByName } from '../../api/endpoints.js';
import { idSchema, workspaceSchema } from '../../api/ids.js';
import { PARAM_DOCS } from './param-docs.js';
import type { ToolDef, ToolSpec } from './types.js';
import { BATCH_ARGS, BATCH_DOC, batched, oneOfLeadArgs } from './batch.js';
import { batchOutput, duplicateOutput } from './outputs.js';
import { emptiesOptional } from './droppable.js';
import { MULTI_PAGE_ARGS, isMultiPage, DUPLICATE_ARGS, isGuardedCreate, userOrMemberId } from './shared-args.js';

export type { ConfirmSpec, ToolDef, ToolSpec } from './types.js';

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

/** A value made on first use and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

// biome-ignore lint/suspicious/noExplicitAny: as for ToolDef
export function defineTool<A extends Record<string, unknown> = Record<string, any>>(spec: ToolSpec<A>): ToolDef<A> {
  const e = endpointByName(spec.endpoint);
  if (!e.toolset) throw new Error(`${spec.endpoint} is not a tool endpoint`);
  // Every pageable list gets the same multi-page arguments here, and every create that is not
  // idempotent its allow_duplicate, never by hand per tool.
  const multiPage = isMultiPage(e);
  const guarded = isGuardedCreate(e);
  const batch = spec.batch === true;
  if (batch && (!spec.run || !spec.did || e.pathIds.lead_id !== 'lead')) throw new Error(`${spec.endpoint}: a batched tool needs run, did and a lead_id path`);
  const extra = { ...(spec.extra ?? {}), ...(multiPage ? MULTI_PAGE_ARGS : {}), ...(guarded ? DUPLICATE_ARGS : {}), ...(batch ? BATCH_ARGS : {}) };
  // Built on first use, not at start: 46 tools' schemas cost a tenth of the binary's start-up,
  // and its published list is computed at build time (scripts/build-bin.ts).
  const input = once(() => {
    const i = inputSchemaFor(e, {
      ...spec,
      ...(batch ? { docs: { ...spec.docs, lead_ids: BATCH_DOC } } : {}),
      extra,
      override: {
        ...spec.override,
        ...Object.fromEntries((spec.userIds ?? []).map((a) => [a, userOrMemberId.optional()])),
        ...(batch ? { lead_id: idSchema('lead').optional() } : {}),
      },
    });
    return batch ? i.superRefine(oneOfLeadArgs) : i;
  });
  // A result leaves out nulls and empties in both forms: its schema does not require them.
  const output = once(() =>
    emptiesOptional(batch ? batchOutput(spec.output as z.ZodObject) : guarded ? duplicateOutput(spec.output as z.ZodObject) : spec.output),
  );
  return {
    name: e.name,
    endpoint: e,
    toolset: e.toolset,
    title: spec.title,
    description: spec.description,
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    extraArgs: Object.keys(extra),
    multiPage,
    guarded,
    userIds: spec.userIds ?? [],
    run: batch ? batched(e.name, spec.did!, spec.run!) : spec.run,
    confirm: spec.confirm,
    ...(spec.did ? { did: spec.did } : {}),
    batch,
    ...(spec.desk ? { desk: spec.desk } : {}),
  };
}
