import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, CallToolResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import fc from 'fast-check';
import { ENDPOINTS, type Endpoint, ID_PREFIXES, type IdKind, isId, isWorkspaceSlug } from '../../src/spec/index.js';
import { Rng } from '../../src/sandbox/rng.js';
import { SANDBOX_KEYS } from '../../src/sandbox/seed/keys.js';
import type { Store } from '../../src/sandbox/store/store.js';
import { listenLoopback } from '../helpers/listen.js';

/*
 * Shared by the reliability tests and scripts/soak.ts: an MCP session that reports every
 * kind of answer, a recording relay, endpoint matching, secret and fence scanners, the
 * mixed fault workload and the fuzz arbitraries built from published schemas.
 */

// ── MCP sessions ────────────────────────────────────────────────────────────────────

/** The built binaries (vitest's global setup, or `npm run soak`, builds dist/ first). */
export const BIN = fileURLToPath(new URL('../../dist/src/cli/mcp.js', import.meta.url));
const SANDBOX_BIN = fileURLToPath(new URL('../../dist/src/cli/sandbox.js', import.meta.url));

/** The parent's basic environment without its REPLY_INBOX_* variables, plus what a test passes (kept here so scripts need no vitest). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...getDefaultEnvironment(), ...extra };
}

export interface ToolError {
  code: string;
  message: string;
  status: number | null;
  param?: string;
  required_scope?: string;
  retry_after?: number;
}

/** Every way a tools/call can end, as the test sees it on the wire. */
export type Outcome =
  | { kind: 'ok'; result: CallToolResult; text: string }
  | { kind: 'tool_error'; error: ToolError; nextStep: string; text: string; result: CallToolResult }
  /** A result whose structuredContent fails the tool's published outputSchema, or an isError without our envelope. */
  | { kind: 'bad_result'; why: string; result: CallToolResult }
  /** A JSON-RPC error instead of a result (or no answer in time). */
  | { kind: 'protocol_error'; code: number | undefined; message: string };

export interface Session {
  client: Client;
  pid: number;
  tools: Tool[];
  stderr(): string;
  /** Whether the binary is still running and its stdio still open. */
  alive(): boolean;
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<Outcome>;
  close(): Promise<void>;
}

const ajv = new AjvJsonSchemaValidator();

/** The text of the first content block, or '' when there is none. */
export function firstText(r: CallToolResult): string {
  const b = r.content?.[0];
  return b && b.type === 'text' ? b.text : '';
}

/** Split an isError text into the error envelope line and the next-step sentence. */
export function parseErrorText(text: string): { error: ToolError; nextStep: string } | null {
  const nl = text.indexOf('\n');
  if (nl <= 0) return null;
  try {
    const body = JSON.parse(text.slice(0, nl)) as { error?: ToolError };
    if (!body.error || typeof body.error.code !== 'string' || typeof body.error.message !== 'string') return null;
    return { error: body.error, nextStep: text.slice(nl + 1) };
  } catch {
    return null;
  }
}

/**
 * Spawn the MCP binary over stdio. Calls go out as raw tools/call requests so that the
 * test, not the SDK client, judges each answer against the tool's published outputSchema.
 */
export async function startSession(args: string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: cleanEnv(env), stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'reliability-test', version: '0.0.0' });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`the MCP binary did not start: ${(e as Error).message}\n${err}`);
  }
  const pid = transport.pid ?? -1;
  const { tools } = await client.listTools();
  const outputs = new Map(tools.map((t) => [t.name, t.outputSchema ? ajv.getValidator(t.outputSchema as never) : null]));
  const call = async (name: string, a: Record<string, unknown>, timeoutMs = 120_000): Promise<Outcome> => {
    let result: CallToolResult;
    try {
      result = (await client.request({ method: 'tools/call', params: { name, arguments: a } }, CallToolResultSchema, { timeout: timeoutMs })) as CallToolResult;
    } catch (e) {
      return { kind: 'protocol_error', code: (e as { code?: number }).code, message: (e as Error).message };
    }
    const text = firstText(result);
    if (result.isError) {
      const parsed = parseErrorText(text);
      return parsed ? { kind: 'tool_error', ...parsed, text, result } : { kind: 'bad_result', why: `isError without the error envelope: ${text.slice(0, 200)}`, result };
    }
    const validate = outputs.get(name);
    if (validate) {
      if (!result.structuredContent) return { kind: 'bad_result', why: 'no structuredContent', result };
      const v = validate(result.structuredContent);
      if (!v.valid) return { kind: 'bad_result', why: `structuredContent fails the outputSchema: ${v.errorMessage}`, result };
    }
    return { kind: 'ok', result, text };
  };
  return {
    client,
    pid,
    tools,
    stderr: () => err,
    alive: () => {
      if (closed || pid < 0) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    call,
    close: () => client.close(),
  };
}

// ── A recording relay ───────────────────────────────────────────────────────────────

export interface Seen {
  method: string;
  /** The raw request target as sent (path and query), before any URL normalisation. */
  url: string;
  status: number | null;
}

export interface Canned {
  status: number;
  body: string;
  contentType?: string;
}

export interface Relay {
  url: string;
  readonly seen: Seen[];
  /** Answer some requests itself (bad bodies, echoed headers) instead of passing them on. */
  override: ((req: IncomingMessage) => Canned | null) | null;
  close(): Promise<void>;
}

/** An HTTP relay in front of an API that records every request at the socket, whatever happens to it next. */
export async function startRelay(target: string): Promise<Relay> {
  const upstream = new URL(target);
  const relay: Relay = { url: '', seen: [], override: null, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: Seen = { method: req.method ?? '', url: req.url ?? '', status: null };
    relay.seen.push(entry);
    const canned = relay.override?.(req) ?? null;
    if (canned) {
      entry.status = canned.status;
      req.resume();
      res.writeHead(canned.status, { 'content-type': canned.contentType ?? 'application/json' });
      res.end(canned.body);
      return;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      entry.status = up.statusCode ?? null;
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  const listening = await listenLoopback(server);
  relay.url = listening.url;
  relay.close = listening.close;
  return relay;
}

// ── Endpoint matching ───────────────────────────────────────────────────────────────

const TEMPLATES = ENDPOINTS.map((e) => ({
  e,
  names: [...e.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!),
  re: new RegExp(`^${e.path.replace(/\{[a-z_]+\}/g, '([^/?#]+)')}$`),
}));

/**
 * The endpoint a raw request target belongs to: its path matches the template of an
 * endpoint with that method, every path value decodes to a valid id of its kind (so no
 * `..`, `/` or `?` hides in it), and every query key is one that endpoint accepts.
 */
export function endpointOf(method: string, target: string): Endpoint | null {
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  const query = new URLSearchParams(q >= 0 ? target.slice(q + 1) : '');
  for (const { e, names, re } of TEMPLATES) {
    if (e.method !== method) continue;
    const m = re.exec(path);
    if (!m) continue;
    const valid = names.every((name, i) => {
      let v: string;
      try {
        v = decodeURIComponent(m[i + 1]!);
      } catch {
        return false;
      }
      const kind = e.pathIds[name];
      return kind === 'workspace' ? isWorkspaceSlug(v) : kind !== undefined && isId(kind, v);
    });
    if (!valid) continue;
    const keys = [...query.keys()];
    if (keys.every((k) => k in e.query || (e.aliases && k in e.aliases))) return e;
  }
  return null;
}

// ── Secrets ─────────────────────────────────────────────────────────────────────────

/** The secret part (the last 32 characters) of every sandbox key, by key name. */
export const SECRETS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(SANDBOX_KEYS).map(([name, key]) => [name, key.split('_')[3]!]));

/** How many times each key's secret appears in the text; an empty object when none does. */
export function secretsIn(text: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [name, secret] of Object.entries(SECRETS)) {
    const n = text.split(secret).length - 1;
    if (n > 0) found[name] = n;
  }
  return found;
}

// ── Fences ──────────────────────────────────────────────────────────────────────────

export interface Fences {
  tag: string;
  spans: [number, number][];
}

/** The one random fence tag of a text copy and the [start, end) span of each fenced block. */
export function fencesOf(text: string): Fences {
  const tag = /<(untrusted-[0-9a-f]{6})[ >]/.exec(text)?.[1];
  if (!tag) throw new Error(`no fence in the text: ${text.slice(0, 200)}`);
  const spans: [number, number][] = [];
  for (const m of text.matchAll(new RegExp(`<${tag}(?: source="[^"]*")?>[\\s\\S]*?</${tag}>`, 'g'))) spans.push([m.index, m.index + m[0].length]);
  return { tag, spans };
}

/** Occurrences of `needle` that lie outside every fenced block. */
export function unfenced(text: string, needle: string, f: Fences = fencesOf(text)): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    if (!f.spans.some(([a, b]) => a < i && i + needle.length < b)) out.push(i);
  }
  return out;
}

/** Zero-width, bidi embedding/override/isolate and other invisible format characters. */
export const INVISIBLE_OR_BIDI = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u061C]/;

// ── The mixed workload under faults ─────────────────────────────────────────────────

/** Codes a read may end with when injected faults outlast the client's retries. */
export const FAULT_CODES = new Set(['upstream_error', 'network_error', 'timeout']);

type Op = { tool: string; args: Record<string, unknown>; kind: 'read' | 'create' | 'write'; marker?: string };

/** One call of the mixed workload: mostly reads (a sixth of them upstream), a third writes. */
function nextOp(rng: Rng, leads: readonly string[], tag: string, i: number): Op {
  const lead = rng.pick(leads);
  const r = rng.next();
  if (r < 0.12) return { tool: 'list_leads', args: { limit: rng.int(1, 30), unread: rng.chance(0.5) }, kind: 'read' };
  if (r < 0.24) return { tool: 'get_lead', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.32) return { tool: 'get_conversation', args: { lead_id: lead, limit: 5 }, kind: 'read' };
  if (r < 0.4) return { tool: 'list_tasks', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.48) return { tool: 'list_notes', args: { lead_id: lead }, kind: 'read' };
  if (r < 0.52) return { tool: 'list_members', args: {}, kind: 'read' };
  if (r < 0.58) return { tool: 'list_meetings', args: { limit: 5 }, kind: 'read' };
  if (r < 0.62) return { tool: 'list_campaign_tags', args: {}, kind: 'read' };
  if (r < 0.66) return { tool: 'get_workspace', args: { include: ['counts'] }, kind: 'read' };
  if (r < 0.8) {
    const marker = `${tag}:task:${i}`;
    return { tool: 'create_task', args: { lead_id: lead, notes: marker, due_date: '2026-12-01' }, kind: 'create', marker };
  }
  if (r < 0.92) {
    const marker = `${tag}:note:${i}`;
    return { tool: 'create_note', args: { lead_id: lead, body: marker }, kind: 'create', marker };
  }
  if (r < 0.96) return { tool: 'mark_read', args: { lead_id: lead }, kind: 'write' };
  return { tool: 'set_priority', args: { lead_ids: [lead], priority: rng.chance(0.5) }, kind: 'write' };
}

export interface CreateRecord {
  tool: string;
  marker: string;
  lead: string;
  outcome: 'ok' | 'outcome_unknown';
  id?: string;
}

export interface WorkloadReport {
  planned: number;
  /** tools/call requests sent, repeats of failed reads included. */
  calls: number;
  ok: number;
  byCode: Record<string, number>;
  /** Answers that are neither a result nor an isError result of our envelope. */
  broken: string[];
  /** Tool errors the faults cannot explain (a read failing with not_found, a create with network_error…). */
  unexpected: string[];
  readsRepeated: number;
  readsFailedForGood: string[];
  creates: CreateRecord[];
  /** Key secrets found in answers (results, errors), by key name. */
  leaks: Record<string, number>;
  ms: number;
}

export interface WorkloadOptions {
  calls: number;
  parallel: number;
  seed: number;
  leads: readonly string[];
  /** Prefix of every marker, unique per run. */
  tag: string;
  /** Repeats of a read that failed on a fault, as an agent would, before calling it lost. */
  maxRepeats?: number;
}

/** Run the workload over one session with `parallel` calls in flight. */
export async function runWorkload(s: Session, o: WorkloadOptions): Promise<WorkloadReport> {
  const started = Date.now();
  const rng = Rng.derive(o.seed, o.tag);
  const ops = Array.from({ length: o.calls }, (_, i) => nextOp(rng, o.leads, o.tag, i));
  const rep: WorkloadReport = { planned: o.calls, calls: 0, ok: 0, byCode: {}, broken: [], unexpected: [], readsRepeated: 0, readsFailedForGood: [], creates: [], leaks: {}, ms: 0 };
  const send = async (op: Op): Promise<Outcome> => {
    rep.calls++;
    const out = await s.call(op.tool, op.args);
    for (const [key, n] of Object.entries(secretsIn(JSON.stringify(out)))) rep.leaks[key] = (rep.leaks[key] ?? 0) + n;
    if (out.kind === 'ok') rep.ok++;
    else if (out.kind === 'tool_error') rep.byCode[out.error.code] = (rep.byCode[out.error.code] ?? 0) + 1;
    else rep.broken.push(`${op.tool}: ${out.kind === 'bad_result' ? out.why : `${out.code} ${out.message}`}`);
    return out;
  };
  const runOne = async (op: Op) => {
    let out = await send(op);
    if (op.kind === 'read') {
      for (let n = 0; out.kind === 'tool_error' && FAULT_CODES.has(out.error.code) && n < (o.maxRepeats ?? 10); n++) {
        rep.readsRepeated++;
        out = await send(op);
      }
      if (out.kind === 'tool_error') {
        if (FAULT_CODES.has(out.error.code)) rep.readsFailedForGood.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code}`);
        else rep.unexpected.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code} ${out.error.message}`);
      }
      return;
    }
    if (out.kind === 'tool_error' && out.error.code !== 'outcome_unknown') {
      rep.unexpected.push(`${op.tool} ${JSON.stringify(op.args)}: ${out.error.code} ${out.error.message}`);
    }
    if (op.kind === 'create' && (out.kind === 'ok' || (out.kind === 'tool_error' && out.error.code === 'outcome_unknown'))) {
      const id = out.kind === 'ok' ? (out.result.structuredContent as { id?: string }).id : undefined;
      rep.creates.push({ tool: op.tool, marker: op.marker!, lead: op.args.lead_id as string, outcome: out.kind === 'ok' ? 'ok' : 'outcome_unknown', id });
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: o.parallel }, async () => {
      while (next < ops.length) await runOne(ops[next++]!);
    }),
  );
  rep.ms = Date.now() - started;
  return rep;
}

export interface DuplicateReport {
  /** Markers stored more than once: the duplicates, counted as extra records. */
  duplicates: number;
  /** A create answered ok whose record is missing, or stored under another id. */
  lostOrMismatched: string[];
  /** Records carrying a marker no call of this run sent. */
  strays: number;
  /** Creates reported outcome_unknown that did happen (once). */
  unknownApplied: number;
}

/**
 * A duplicate is a second task or note carrying the marker of one create call. Each
 * create call wrote a unique marker (task notes, note body), so counting markers in the
 * store counts how many records each call made.
 */
export function countDuplicates(store: Store, tag: string, creates: readonly CreateRecord[]): DuplicateReport {
  const stored = new Map<string, string[]>();
  const add = (text: string | null, id: string) => {
    if (!text?.startsWith(`${tag}:`)) return;
    stored.set(text, [...(stored.get(text) ?? []), id]);
  };
  for (const t of store.tasks.all()) add(t.notes, t.id);
  for (const n of store.notes.all()) add(n.body, n.id);
  const report: DuplicateReport = { duplicates: 0, lostOrMismatched: [], strays: 0, unknownApplied: 0 };
  for (const ids of stored.values()) report.duplicates += Math.max(0, ids.length - 1);
  const sent = new Set(creates.map((c) => c.marker));
  for (const marker of stored.keys()) if (!sent.has(marker)) report.strays++;
  for (const c of creates) {
    const ids = stored.get(c.marker) ?? [];
    if (c.outcome === 'ok' && (ids.length !== 1 || ids[0] !== c.id)) report.lostOrMismatched.push(`${c.marker}: answered ${c.id}, stored [${ids.join(', ')}]`);
    if (c.outcome === 'outcome_unknown' && ids.length === 1) report.unknownApplied++;
  }
  return report;
}

// ── Fuzz arbitraries from a published input schema ──────────────────────────────────

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
  lead_id: 'lead', lead_ids: 'lead', task_id: 'task', meeting_id: 'meeting', event_type_id: 'event_type', template_id: 'template',
  attachment_id: 'attachment', member_ids: 'member', assignee_id: 'user', tag_ids: 'lead_tag', lead_tag_id: 'lead_tag',
  campaign_id: 'campaign', folder_id: 'template_folder', host_id: 'user', author_id: 'user', message_id: 'message',
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
  return [...tricks, ...wrongKind, `${prefix}abc_def_ghi_`, prefix, `${prefix.toUpperCase()}abc`, `${prefix}${'a'.repeat(200)}`, `${prefix}é`, `${prefix}abc\u202E`];
}

const HUGE = ['x'.repeat(200_000), '\u{1F600}'.repeat(20_000), 'a'.repeat(161), 'b'.repeat(10_001), `${'<untrusted-000000>'.repeat(500)}`];
const OUT_OF_RANGE = [-1, 0, 201, 10_001, 1e21, -1e21, 2 ** 53 + 2, 1.5, -0.0001, 100_001];

/** A value that is wrong for any argument: wrong types, huge or strange strings, bad ids, out-of-range numbers. */
function hostile(name: string, s: JsonSchema): fc.Arbitrary<unknown> {
  const prefix = prefixFor(name, s) ?? 'lead_';
  return fc.oneof(
    fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 })),
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
  if (prefix) return fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((t) => `${prefix}${t}`), fc.constantFrom(`${prefix}abc_def`, 'usr_ada', 'usr_ben_acme'));
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
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: plausible(name, s) }, { weight: 2, arbitrary: hostile(name, s) }).map((v) => [name, v] as const),
  );
  const extras = fc.oneof({ weight: 5, arbitrary: fc.constant([] as [string, unknown][]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }) });
  return fc.tuple(fc.tuple(...fields), extras).map(([fs, xs]) => Object.fromEntries([...fs.filter(([, v]) => v !== undefined), ...xs]));
}

/** A validator of a published input schema, applied to arguments as they travel (JSON). */
export function inputValidator(schema: Tool['inputSchema']): (args: Record<string, unknown>) => boolean {
  const v = ajv.getValidator(schema as never);
  return (args) => v(JSON.parse(JSON.stringify(args))).valid;
}

// ── The sandbox binary as a child process ───────────────────────────────────────────

export interface SandboxProcess {
  baseUrl: string;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  close(): Promise<void>;
}

/** Run reply-inbox-sandbox as its own process, so its logs can be captured whole. */
export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(process.execPath, [SANDBOX_BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let first = '';
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      first += d.toString('utf8');
      const line = first.split('\n')[0];
      if (first.includes('\n') && line) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (more: Buffer) => (out += more.toString('utf8')));
        resolve((JSON.parse(line) as { base_url: string }).base_url);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${out}`)));
  });
  return {
    baseUrl,
    output: () => out,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ── The fuzz run ────────────────────────────────────────────────────────────────────

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
export async function fuzzCase(s: Session, relay: Relay, tool: Tool, valid: (a: Record<string, unknown>) => boolean, args: Record<string, unknown>, report: FuzzReport): Promise<void> {
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
