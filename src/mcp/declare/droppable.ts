import { z } from 'zod';

/**
 * Output schemas say what a result may leave out. Results drop nulls, empty lists and empty
 * objects in both forms (view/shape.ts dropEmpty), so a field whose schema admits one of
 * those is optional, at any depth: structuredContent checked against the schema (by the
 * server, a client or a test) passes without them. `effects` stay as the API sent them.
 */
export function emptiesOptional<T extends z.ZodType>(schema: T): T {
  return relax(schema) as T;
}

/** Whether a value of this schema may be null, a list or an object (which can be empty). */
function mayBeEmpty(s: z.ZodType): boolean {
  if (s instanceof z.ZodNullable || s instanceof z.ZodArray || s instanceof z.ZodObject || s instanceof z.ZodRecord) return true;
  if (s instanceof z.ZodUnknown || s instanceof z.ZodAny) return true;
  if (s instanceof z.ZodOptional) return mayBeEmpty(s.unwrap() as z.ZodType);
  if (s instanceof z.ZodUnion) return (s.options as z.ZodType[]).some(mayBeEmpty);
  return false;
}

const described = (next: z.ZodType, was: z.ZodType) => (was.description ? next.describe(was.description) : next);

function relax(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional) return described(relax(s.unwrap() as z.ZodType).optional(), s);
  if (s instanceof z.ZodNullable) return described(relax(s.unwrap() as z.ZodType).nullable(), s);
  if (s instanceof z.ZodArray) return described(z.array(relax(s.element as z.ZodType)), s);
  if (s instanceof z.ZodUnion) return described(z.union((s.options as z.ZodType[]).map(relax) as [z.ZodType, z.ZodType]), s);
  if (s instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [k, v] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      if (k === 'effects') continue;
      const r = relax(v);
      shape[k] = mayBeEmpty(v) && !(v instanceof z.ZodOptional) ? described(r.optional(), v) : r;
    }
    return described(s.extend(shape), s);
  }
  return s;
}
