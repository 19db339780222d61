import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { Tool } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { ID_PREFIXES, type IdKind } from '../../../src/api/ids.js';
import type { Relay } from '../relay.js';
import { endpointOf } from './endpoint-of.js';
import { secretsIn } from './scan.js';
import type { Session } from './session.js';

/* Fuzz arguments built from a tool's published input schema, and the run that checks each answer. */

const ajv = new AjvJsonSchemaValidator();

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
};

/** Path tricks placed in and around ids: traversal, encoded separators, a query, a fragment, control characters. */
export const PATH_TRICKS = ['../', '..', '..%2F', '%2F', '/', '?', '?limit=1', '#', '%3F', '%23', '\\', '%00', '\n', ' ', '&x=1', '%2e%2e%2f', '/../../../me'];

const KIND_OF_NAME: Record<string, IdKind> = {
  lead_id: 'lead',
  lead_ids: 'lead',
  task_id: 'task',
  meeting_id: 'meeting',
  event_type_id: 'event_type',
  template_id: 'template',
  attachment_id: 'attachment',
  member_ids: 'member',
  assignee_id: 'user',
  tag_ids: 'lead_tag',
  lead_tag_id: 'lead_tag',
  campaign_id: 'campaign',
  folder_id: 'template_folder',
  host_id: 'user',
  author_id: 'user',
  message_id: 'message',
};

/** The id prefix an argument expects, from its pattern or its name (published schemas leave id patterns to the server). */
export function prefixFor(name: string, s: JsonSchema): string | null {
  const fromPattern = s.pattern ? /^\^([a-z]+_)/.exec(s.pattern)?.[1] : undefined;
  if (fromPattern) return fromPattern;
  const kind = KIND_OF_NAME[name];
  return kind ? ID_PREFIXES[kind] : null;
}

/** Ids that must never reach a path: path tricks around the right prefix, and well-formed ids of every other kind. */
export function hostileIds(prefix: string): string[] {
  const tricks = PATH_TRICKS.flatMap((t) => [`${prefix}${t}`, `${prefix}abc${t}`, `${prefix}abc${t}def`, `${t}${prefix}abc`]);
  const wrongKind = [...new Set(Object.values(ID_PREFIXES))].filter((p) => p !== prefix).map((p) => `${p}abc123`);
  return [
    ...tricks,
    ...wrongKind,
    `${prefix}abc_def_ghi_`,
    prefix,
    `${prefix.toUpperCase()}abc`,
    `${prefix}${'a'.repeat(200)}`,
    `${prefix}é`,
    `${prefix}abc\u202E`,
  ];
}

const HUGE = ['x'.repeat(200_000), '\u{1F600}'.repeat(20_000), 'a'.repeat(161), 'b'.repeat(10_001), `${'<untrusted-000000>'.repeat(500)}`];
const OUT_OF_RANGE = [-1, 0, 201, 10_001, 1e21, -1e21, 2 ** 53 + 2, 1.5, -0.0001, 100_001];

/** A value that is wrong for any argument: wrong types, huge or strange strings, bad ids, out-of-range numbers. */
function hostile(name: string, s: JsonSchema): fc.Arbitrary<unknown> {
  const prefix = prefixFor(name, s) ?? 'lead_';
  return fc.oneof(
    fc.oneof(
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
    ),
    fc.constantFrom(...HUGE),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...hostileIds(prefix)),
    fc.constantFrom(...OUT_OF_RANGE),
    fc.array(fc.constantFrom(...hostileIds(prefix)), { minLength: 1, maxLength: 3 }),
  );
}

/** A plausible value for the schema, so that some calls pass validation and reach the API with strange content. */
function plausible(name: string, s: JsonSchema): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((x) => plausible(name, x)));
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const arbs: fc.Arbitrary<unknown>[] = [];
  for (const t of types) {
    if (t === 'null') arbs.push(fc.constant(null));
    else if (t === 'boolean') arbs.push(fc.boolean());
    else if (t === 'integer' || t === 'number') arbs.push(fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000 }));
    else if (t === 'array') arbs.push(fc.array(plausible(name, s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) }));
    else if (t === 'object') arbs.push(fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 30 }), { maxKeys: 3 }));
    else if (t === 'string') arbs.push(plausibleString(name, s));
  }
  return arbs.length ? fc.oneof(...arbs) : fc.string();
}

function plausibleString(name: string, s: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(s.maxLength ?? 60, 60);
  const min = Math.min(s.minLength ?? 0, max);
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length >= min && x.length <= (s.maxLength ?? Infinity));
  if (name === 'workspace') return fc.constantFrom('acme', 'globex', 'initech', 'nope', 'ACME');
  const prefix = prefixFor(name, s);
  if (prefix)
    return fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((t) => `${prefix}${t}`),
      fc.constantFrom(`${prefix}abc_def`, 'usr_ada', 'usr_ben_acme'),
    );
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
    fc.constantFrom('2026-11-20', '2026-11-20T12:00:00Z', '2026-02-30', '12:30', '25:99', 'a&b=c#d?e/../f', '%2F..%2F', '\u202Eevil\u200B'),
  );
}

/**
 * Keys no tool takes: near misses, prototype names and sort requests. `__proto__` is left
 * to its own test: the SDK's request parsing turns it into the prototype of the arguments,
 * so the server never sees it as a key.
 */
const EXTRA_KEYS = ['extra', 'constructor', 'toString', 'hasOwnProperty', 'sort_by', 'LIMIT', 'lead_id ', 'workspace\u0000', 'api_key', 'base_url'];

/**
 * Arguments for one tool: each published property omitted, plausible or hostile, and now
 * and then keys the tool does not take.
 */
export function argumentsFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const fields = props.map(([name, s]) =>
    fc
      .oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: plausible(name, s) }, { weight: 2, arbitrary: hostile(name, s) })
      .map((v) => [name, v] as const),
  );
  const extras = fc.oneof(
    { weight: 5, arbitrary: fc.constant([] as [string, unknown][]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }) },
  );
  return fc.tuple(fc.tuple(...fields), extras).map(([fs, xs]) => Object.fromEntries([...fs.filter(([, v]) => v !== undefined), ...xs]));
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * The arguments as the server says it reads them (docs/tools.md): cursor null is no cursor, and one
 * value where the published schema takes an array is a list of one. Written from the published
 * schema, apart from the server's own code, so the oracle stays independent of it.
 */
function asRead(schema: Tool['inputSchema'], args: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name === 'cursor' && value === null && name in props) continue;
    const read = props[name]?.type === 'array' && isScalar(value) ? [value] : value;
    // Defined, not assigned: a "__proto__" key stays a key, for the schema to refuse.
    Object.defineProperty(out, name, { value: read, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A validator of a published input schema, applied to arguments as they travel (JSON) and as the server reads them. */
export function inputValidator(schema: Tool['inputSchema']): (args: Record<string, unknown>) => boolean {
  const v = ajv.getValidator(schema as never);
  return (args) => v(asRead(schema, JSON.parse(JSON.stringify(args)))).valid;
}

/** Codes the server answers for arguments its schema refuses. */
export const ARGUMENT_CODES = new Set(['invalid_request', 'invalid_id']);
/** A JavaScript stack frame: an answer must never carry one. */
const STACK_FRAME = /\n\s+at .+:\d+:\d+/;

export interface FuzzReport {
  cases: number;
  refusedBySchema: number;
  /** Calls that reached the API (the relay saw a request for them). */
  reachedApi: number;
  failures: string[];
}

/**
 * One fuzz case: the call is answered cleanly, nothing is sent when the published input
 * schema refuses the arguments, and every request it does send stays inside its endpoint.
 */
export async function fuzzCase(
  s: Session,
  relay: Relay,
  tool: Tool,
  valid: (a: Record<string, unknown>) => boolean,
  args: Record<string, unknown>,
  report: FuzzReport,
): Promise<void> {
  report.cases++;
  const before = relay.seen.length;
  const out = await s.call(tool.name, args);
  const sent = relay.seen.slice(before);
  const accepted = valid(args);
  const show = () => `${tool.name} ${JSON.stringify(args).slice(0, 300)}`;
  if (out.kind === 'protocol_error' || out.kind === 'bad_result') throw new Error(`${show()}: ${out.kind === 'bad_result' ? out.why : out.message}`);
  if (!accepted) {
    report.refusedBySchema++;
    if (sent.length > 0) throw new Error(`${show()}: refused by the published schema, yet sent ${sent.map((x) => `${x.method} ${x.url}`).join(', ')}`);
    if (out.kind !== 'tool_error' || !ARGUMENT_CODES.has(out.error.code) || typeof out.error.param !== 'string') {
      throw new Error(`${show()}: refused by the published schema, answered ${out.kind === 'tool_error' ? JSON.stringify(out.error) : 'ok'}`);
    }
  }
  if (sent.length > 0) report.reachedApi++;
  for (const x of sent) {
    const e = endpointOf(x.method, x.url);
    if (!e || (e.name !== tool.name && e.name !== 'get_me')) throw new Error(`${show()}: sent ${x.method} ${x.url}, outside ${tool.name}'s endpoint`);
  }
  if (STACK_FRAME.test(out.text)) throw new Error(`${show()}: a stack trace in the answer`);
  const leaked = secretsIn(JSON.stringify(out.result));
  if (Object.keys(leaked).length) throw new Error(`${show()}: key secrets in the answer: ${Object.keys(leaked).join(', ')}`);
}

/** Fuzz every tool of the session with `runs` generated argument sets each. */
export async function fuzzTools(s: Session, relay: Relay, o: { runs: number; seed: number }): Promise<FuzzReport> {
  const report: FuzzReport = { cases: 0, refusedBySchema: 0, reachedApi: 0, failures: [] };
  for (const tool of s.tools) {
    const valid = inputValidator(tool.inputSchema);
    const details = await fc.check(
      fc.asyncProperty(argumentsFor(tool.inputSchema as JsonSchema), (args) => fuzzCase(s, relay, tool, valid, args, report)),
      { numRuns: o.runs, seed: o.seed, endOnFailure: true },
    );
    if (details.failed) report.failures.push(String((details.errorInstance as Error | undefined)?.message ?? details.counterexample));
  }
  return report;
}
