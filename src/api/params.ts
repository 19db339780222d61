import { z } from 'zod';
import { dateTimeProblem, dayProblem, explainedString, isDateTime, isDay } from './dates.js';
import { type IdKind, idSchema, idShape, isId } from './ids.js';

/**
 * A query parameter, described once. `input` is the typed schema the client and the tools
 * validate with before sending; `toWire` writes the value into a query string; `fromWire`
 * is how the sandbox reads it back. The wire error code follows the spec's error table.
 */
export type WireCode = 'invalid_request' | 'invalid_id' | 'unsupported_filter' | 'unsupported_sort';
export type WireResult<T> = { ok: true; value: T } | { ok: false; code: WireCode; message: string };

export interface Param<T = unknown> {
  readonly kind: string;
  /** The kind of the ids an id parameter takes. */
  readonly idKind?: IdKind;
  readonly input: z.ZodType<T>;
  toWire(value: T): string;
  fromWire(raw: string): WireResult<T>;
}

const ok = <T>(value: T): WireResult<T> => ({ ok: true, value });
const fail = (code: WireCode, message: string): WireResult<never> => ({ ok: false, code, message });
/** A date value as read from the wire: itself, or the sentence on what is wrong with it. */
const wireOf = (raw: string, problem: string | null): WireResult<string> => (problem === null ? ok(raw) : fail('invalid_request', problem));

export const p = {
  /** Page size: 1..max; larger values are clamped by the service, smaller are refused. */
  limit(max = 200): Param<number> {
    return {
      kind: 'limit',
      input: z.number().int().min(1).max(max).describe(`page size, 1..${max} (default 50)`),
      toWire: String,
      fromWire(raw) {
        if (!/^-?\d+$/.test(raw)) return fail('invalid_request', 'limit must be an integer');
        const n = Number(raw);
        if (n < 1) return fail('invalid_request', 'limit must be at least 1');
        return ok(Math.min(n, max));
      },
    };
  },
  bool(): Param<boolean> {
    return {
      kind: 'bool',
      input: z.boolean(),
      toWire: (v) => (v ? 'true' : 'false'),
      fromWire: (raw) => (raw === 'true' ? ok(true) : raw === 'false' ? ok(false) : fail('invalid_request', 'must be true or false')),
    };
  },
  /** Opaque cursor; only the endpoint that made it can judge it (invalid_cursor). */
  cursor(): Param<string> {
    return {
      kind: 'cursor',
      input: z.string().min(1).max(2048).describe('next_cursor of the previous page'),
      toWire: (v) => v,
      fromWire: (raw) => (raw.length > 0 && raw.length <= 2048 ? ok(raw) : fail('invalid_request', 'cursor is empty')),
    };
  },
  order(): Param<'asc' | 'desc'> {
    return {
      kind: 'order',
      input: z.enum(['asc', 'desc']).describe('asc or desc (default desc); flips the fixed sort key'),
      toWire: (v) => v,
      fromWire: (raw) => (raw === 'asc' || raw === 'desc' ? ok(raw) : fail('unsupported_sort', 'order must be asc or desc')),
    };
  },
  /** One value out of a closed list; an unknown value is an unsupported filter value. */
  oneOf<const V extends readonly [string, ...string[]]>(values: V): Param<V[number]> {
    return {
      kind: 'oneOf',
      input: z.enum(values as unknown as [V[number], ...V[number][]]),
      toWire: (v) => v,
      fromWire: (raw) =>
        (values as readonly string[]).includes(raw) ? ok(raw as V[number]) : fail('unsupported_filter', `must be one of ${values.join(', ')}`),
    };
  },
  /** Comma-separated values out of a closed list: at most `max`, and never more than the list has (more could only repeat). */
  list<const V extends readonly [string, ...string[]]>(values: V, opts: { max?: number; code?: WireCode } = {}): Param<V[number][]> {
    const code = opts.code ?? 'unsupported_filter';
    const input = z
      .array(z.enum(values as unknown as [V[number], ...V[number][]]))
      .min(1)
      .max(Math.min(opts.max ?? values.length, values.length));
    return {
      kind: 'list',
      input,
      toWire: (v) => v.join(','),
      fromWire(raw) {
        const items = raw.split(',').map((s) => s.trim());
        if (items.some((s) => s === '')) return fail(code, 'empty item in comma-separated list');
        const bad = items.find((s) => !(values as readonly string[]).includes(s));
        if (bad !== undefined) return fail(code, `unknown value '${bad}'; allowed: ${values.join(', ')}`);
        if (opts.max && items.length > opts.max) return fail('invalid_request', `at most ${opts.max} values`);
        return ok([...new Set(items)] as V[number][]);
      },
    };
  },
  id(kind: IdKind): Param<string> {
    return {
      kind: 'id',
      idKind: kind,
      input: idSchema(kind),
      toWire: (v) => v,
      fromWire: (raw) => (isId(kind, raw) ? ok(raw) : fail('invalid_id', `must be ${idShape(kind)}`)),
    };
  },
  /** Comma-separated ids, optionally also accepting a literal such as `none`. */
  ids(kind: IdKind, opts: { max?: number; literal?: string } = {}): Param<string[]> {
    const item = (v: string) => isId(kind, v) || (opts.literal !== undefined && v === opts.literal);
    const what = `${idShape(kind)}${opts.literal ? ` or the literal ${opts.literal}` : ''}`;
    let input = z.array(z.string().refine(item, { message: `each must be ${what}` })).min(1);
    if (opts.max) input = input.max(opts.max);
    return {
      kind: 'ids',
      idKind: kind,
      input,
      toWire: (v) => v.join(','),
      fromWire(raw) {
        const items = raw.split(',').map((s) => s.trim());
        const bad = items.find((s) => !item(s));
        if (bad !== undefined) return fail('invalid_id', `'${bad}' is not ${what}`);
        if (opts.max && items.length > opts.max) return fail('invalid_request', `at most ${opts.max} ids`);
        return ok([...new Set(items)]);
      },
    };
  },
  day(): Param<string> {
    return {
      kind: 'day',
      input: explainedString(dayProblem),
      toWire: (v) => v,
      fromWire: (raw) => wireOf(raw, dayProblem(raw)),
    };
  },
  dateTime(): Param<string> {
    return {
      kind: 'dateTime',
      input: explainedString(dateTimeProblem),
      toWire: (v) => v,
      fromWire: (raw) => wireOf(raw, dateTimeProblem(raw)),
    };
  },
  /** Day or date-time, for the insights windows. */
  dayOrDateTime(): Param<string> {
    const good = (s: string) => isDay(s) || isDateTime(s);
    // A value of a day's length is told about as a day, anything longer as a date-time.
    const problem = (s: string) => (good(s) ? null : s.length <= 10 ? dayProblem(s) : dateTimeProblem(s));
    return {
      kind: 'dayOrDateTime',
      input: explainedString(problem),
      toWire: (v) => v,
      fromWire: (raw) => wireOf(raw, problem(raw)),
    };
  },
  text(min: number, max: number): Param<string> {
    return {
      kind: 'text',
      // Lengths count characters (code points), as the service does, not UTF-16 units.
      input: z.string().refine((v) => [...v].length >= min && [...v].length <= max, { message: `must be ${min}..${max} characters` }),
      toWire: (v) => v,
      fromWire(raw) {
        const n = [...raw].length;
        return n >= min && n <= max ? ok(raw) : fail('invalid_request', `must be ${min}..${max} characters`);
      },
    };
  },
  email(): Param<string> {
    const good = (s: string) => /^[^\s@]+@[^\s@]+$/.test(s) && s.length <= 320;
    return {
      kind: 'email',
      input: z.string().refine(good, { message: 'must be an email address' }),
      toWire: (v) => v,
      fromWire: (raw) => (good(raw) ? ok(raw) : fail('invalid_request', 'must be an email address')),
    };
  },
  timezone(): Param<string> {
    const good = (s: string) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: s });
        return s.length <= 64;
      } catch {
        return false;
      }
    };
    return {
      kind: 'timezone',
      input: z.string().refine(good, { message: 'must be an IANA time zone, e.g. Europe/Berlin' }),
      toWire: (v) => v,
      fromWire: (raw) => (good(raw) ? ok(raw) : fail('invalid_request', 'must be an IANA time zone, e.g. Europe/Berlin')),
    };
  },
};

/** The paging parameters every list endpoint takes. */
export const PAGING = { limit: p.limit(), cursor: p.cursor(), order: p.order() } as const;
