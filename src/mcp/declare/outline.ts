/**
 * The published form of an output schema: the fields a result holds at its top level, each
 * with its type (and the schema's own description), and nothing deeper (a nested record or list is `{"type":"object"}` or
 * `{"type":"array"}`). tools/list carries every tool's output schema on each listing, and a
 * full record schema repeated in every tool that returns it was most of the list's bytes. An
 * outline accepts every value the full schema accepts, so a client that checks results with
 * it never refuses one; the server checks its own results against the full schema.
 */

type Schema = Record<string, unknown>;

/** Fields every result may carry, explained once in the server instructions. */
const SAID_IN_INSTRUCTIONS = new Set(['untrusted', 'left_out', 'notices']);
/** Keywords that say nothing a client checks or a model needs at the top level. */
const NOTES = new Set(['description', 'title', 'default', 'examples', '$comment']);
/** zod's bounds of a safe integer: true of every JSON integer a client reads. */
const SAFE = Number.MAX_SAFE_INTEGER;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One value's type, its nested structure left out; constraints of a scalar (const, enum, format) kept. */
function typeOnly(s: Schema): Schema {
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as unknown[]).filter(isSchema).map(typeOnly);
    const unique = [...new Map(branches.map((b) => [JSON.stringify(b), b])).values()];
    return unique.length === 1 ? unique[0]! : { anyOf: unique };
  }
  if (s.type === 'object' || s.type === 'array') return { type: s.type };
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (NOTES.has(k) || ((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === SAFE)) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? out : s;
}

/** The outline of an object output schema (portable in, portable out: every node keeps a type). */
export function outlineSchema(s: Schema): Schema {
  const props = isSchema(s.properties) ? (s.properties as Record<string, unknown>) : {};
  const open = s.additionalProperties !== false;
  const properties: Record<string, Schema> = {};
  for (const [name, p] of Object.entries(props)) {
    if (!isSchema(p) || (open && SAID_IN_INSTRUCTIONS.has(name))) continue;
    properties[name] = typeOnly(p);
  }
  const required = Array.isArray(s.required) ? (s.required as string[]).filter((n) => n in properties) : [];
  return {
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: open,
  };
}
