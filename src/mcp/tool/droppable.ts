/**
 * Published output schemas say what a result may leave out. Results drop nulls, empty lists
 * and empty objects in both forms (view/shape.ts dropEmpty), so a property whose schema
 * admits one of those is not required: a client that checks structuredContent against the
 * schema accepts the result without them. Everything else stays as the tool's schema says.
 */

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a value of this schema may be null, a list or an object (which can be empty). */
function mayBeEmpty(s: unknown): boolean {
  if (!isSchema(s)) return s === true;
  const t = s.type;
  if (t === 'null' || t === 'array' || t === 'object') return true;
  if (Array.isArray(t) && t.some((x) => x === 'null' || x === 'array' || x === 'object')) return true;
  if ('const' in s && (s.const === null || typeof s.const === 'object')) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as unknown[]).some(mayBeEmpty));
}

/** The schema with every property that may be empty taken out of `required`, at any depth. */
export function emptiesOptional(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(emptiesOptional);
  if (!isSchema(s)) return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) out[k] = emptiesOptional(v);
  const props = isSchema(s.properties) ? s.properties : undefined;
  if (props && Array.isArray(s.required)) out.required = (s.required as string[]).filter((k) => !mayBeEmpty(props[k]));
  return out;
}
