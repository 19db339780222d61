import { z } from 'zod';
import { bodyIdKind } from './bodies.js';
import { type Endpoint, TOOL_ENDPOINTS } from './endpoints.js';
import { ID_PREFIXES, type IdKind } from './ids.js';
import { RESOURCES, type ResourceName } from './resources.js';

/** A kind of id an argument takes: an id kind, or the workspace (a slug). */
type Kind = IdKind | 'workspace';

const isIdKind = (k: string): k is IdKind => k in ID_PREFIXES;

/** The kinds each argument name takes across the tools: path ids, id query parameters, id body fields. */
function argumentKinds(endpoints: readonly Endpoint[]): Map<string, Set<Kind>> {
  const kinds = new Map<string, Set<Kind>>();
  const add = (name: string, kind: Kind | undefined) => {
    if (kind !== undefined) kinds.set(name, (kinds.get(name) ?? new Set()).add(kind));
  };
  for (const e of endpoints) {
    for (const [name, kind] of Object.entries(e.pathIds)) add(name, kind);
    for (const [name, param] of Object.entries(e.query)) add(name, param.idKind);
    if (e.body instanceof z.ZodObject) for (const [name, field] of Object.entries(e.body.shape)) add(name, bodyIdKind(field as z.ZodType));
  }
  return kinds;
}

/** Whether a schema is the record of `resource`, alone or as a list (optional or not). */
function holds(field: unknown, resource: z.ZodType): boolean {
  let f = field;
  while (f instanceof z.ZodOptional || f instanceof z.ZodNullable || f instanceof z.ZodArray) f = f instanceof z.ZodArray ? f.element : f.unwrap();
  return f === resource;
}

/**
 * The tool that gives real ids of a kind: a list of that kind's records (the one with the
 * fewest path ids: list_members before get_assignees), else a list whose records carry them
 * (attachments ride in get_conversation's messages), else the lister of a kind written with the
 * same prefix (a user id usr_x is listed as the member ids usr_x_y that list_members gives).
 */
function listerOfKind(kind: Kind, lists: readonly Endpoint[]): string | undefined {
  const fewestPathIds = (es: readonly Endpoint[]) => [...es].sort((a, b) => Object.keys(a.pathIds).length - Object.keys(b.pathIds).length)[0]?.name;
  const own = lists.filter((e) => e.resource === kind);
  if (own.length) return fewestPathIds(own);
  const record = RESOURCES[kind as ResourceName] as z.ZodType | undefined;
  const carriers = lists.filter((e) => {
    const items = RESOURCES[e.resource] as z.ZodType;
    return record !== undefined && items instanceof z.ZodObject && Object.values(items.shape).some((f) => holds(f, record));
  });
  if (carriers.length) return fewestPathIds(carriers);
  if (!isIdKind(kind)) return undefined;
  const twin = (Object.keys(ID_PREFIXES) as IdKind[]).find((k) => k !== kind && ID_PREFIXES[k] === ID_PREFIXES[kind] && lists.some((e) => e.resource === k));
  return twin && listerOfKind(twin, lists);
}

/**
 * The tool that lists real values of each id argument the tools take, for an error's next step
 * ("list_leads gives real ones"), derived from the endpoint table: the kinds the tools'
 * arguments take, and the tools that list each kind.
 */
export function listersOf(endpoints: readonly Endpoint[] = TOOL_ENDPOINTS): Map<string, string> {
  const lists = endpoints.filter((e) => e.returns === 'list');
  const listers = new Map<string, string>();
  for (const [name, kinds] of argumentKinds(endpoints)) {
    const found = new Set([...kinds].map((k) => listerOfKind(k, lists)).filter((l) => l !== undefined));
    if (found.size === 1) listers.set(name, [...found][0]!);
  }
  return listers;
}

/** Worked out on the first error that needs it, not at start. */
let listers: Map<string, string> | undefined;

/**
 * The tool that lists real values of an argument; a name the table does not type (lead_ids,
 * which tools add for a batch) is read by the table's own convention, <kind>_id or <kind>_ids.
 */
export function listerOf(argument: string): string | undefined {
  listers ??= listersOf();
  const listed = listers.get(argument);
  if (listed !== undefined) return listed;
  const kind = /^(\w+?)_ids?$/.exec(argument)?.[1];
  return kind !== undefined && isIdKind(kind)
    ? listerOfKind(
        kind,
        TOOL_ENDPOINTS.filter((e) => e.returns === 'list'),
      )
    : undefined;
}
