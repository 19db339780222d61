/**
 * Published schemas in the form every major model provider's tool dialect accepts, the one
 * the MCP Inspector's schema portability check (`--strict`) passes: a `type` is one name,
 * never an array (Gemini's OpenAPI subset and others reject `["string","null"]`), so a
 * nullable value is `anyOf` of a typed branch and `{"type":"null"}`; and no schema is empty:
 * an open object's `additionalProperties: {}` is `true`, and a value of any kind (zod's
 * `unknown`) is `anyOf` one branch per JSON type. Each rewrite accepts exactly the values
 * the original accepted.
 */

type Schema = Record<string, unknown>;

/** Keywords that describe a schema without constraining it: they stay beside `anyOf`. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'id', '$id']);
/** Keywords whose value may be the boolean `true` in place of an empty schema. */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** Keywords that hold one schema, a list of schemas, or a map of name to schema. */
const ONE = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'contentSchema'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** One branch per JSON type: `integer` is within `number`. */
const ANY_JSON = ['object', 'array', 'string', 'number', 'boolean', 'null'].map((type) => ({ type }));

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const constrains = (s: Schema) => Object.keys(s).some((k) => !ANNOTATIONS.has(k)) && !(Object.keys(s).length === 1 && 'if' in s);

function split(s: Schema): [Schema, Schema] {
  const notes: Schema = {};
  const rest: Schema = {};
  for (const [k, v] of Object.entries(s)) (ANNOTATIONS.has(k) ? notes : rest)[k] = v;
  return [notes, rest];
}

/** `{type: [a, "null"], …}` → `{anyOf: [{type: a, …}, {type: "null"}]}`, the annotations kept outside. */
function unionToAnyOf(s: Schema, types: string[]): Schema {
  const [notes, { type: _, ...rest }] = split(s);
  const branches = types.map((type) => (type === 'null' ? { type } : { type, ...rest }));
  return { ...notes, anyOf: branches };
}

/** The portable form of one schema and everything under it. */
export function portableSchema(s: Schema, keyword?: string): Schema | boolean {
  const out: Schema = { ...s };
  for (const k of ONE) if (isSchema(out[k])) out[k] = portableSchema(out[k] as Schema, k);
  for (const k of LIST) if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((v) => (isSchema(v) ? portableSchema(v, k) : v));
  for (const k of MAP) {
    if (isSchema(out[k])) out[k] = Object.fromEntries(Object.entries(out[k] as Schema).map(([n, v]) => [n, isSchema(v) ? portableSchema(v, k) : v]));
  }
  if (Array.isArray(out.type)) return out.type.length === 1 ? { ...out, type: out.type[0] } : unionToAnyOf(out, out.type as string[]);
  if (keyword === 'not' || constrains(out)) return out;
  if (keyword && BOOLEAN_VALUED.has(keyword) && Object.keys(out).length === 0) return true;
  return { ...out, anyOf: ANY_JSON };
}
