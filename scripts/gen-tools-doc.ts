import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { publishedTool } from '../src/mcp/server.js';
import { checkedInputSchema, checkedOutputSchema } from '../src/mcp/declare/publish.js';
import type { ToolDef } from '../src/mcp/declare/define.js';
import { ALL_TOOLS } from '../tools/index.js';
import { README, byToolset, renderReadme, toolsetTable } from './readme-tools.js';

/**
 * docs/tools.md, written from the registry and the schemas tools/list publishes, so the
 * reference cannot say anything the server does not. `npm run docs:tools` rewrites it and the
 * README's tool count and toolset table (scripts/readme-tools.ts); test/ship/tools-doc.test.ts
 * fails when either is stale.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema walked by key, any shape
type Schema = Record<string, any>;

export const TOOLS_DOC = fileURLToPath(new URL('../docs/tools.md', import.meta.url));

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;

/** A JSON Schema as a short phrase a person reads in a table cell. */
export function typeOf(s: Schema | undefined): string {
  if (!s || Object.keys(s).length === 0 || (Object.keys(s).length === 1 && 'description' in s)) return 'any';
  if (s.anyOf) return (s.anyOf as Schema[]).map(typeOf).join(' or ');
  if (Array.isArray(s.type)) return (s.type as string[]).map((t) => typeOf({ ...s, type: t })).join(' or ');
  if (s.const !== undefined) return code(s.const);
  if (s.enum) return (s.enum as unknown[]).map(code).join(' / ');
  const range = (lo: unknown, hi: unknown, unit = '') =>
    lo !== undefined && hi !== undefined ? ` ${lo}–${hi}${unit}` : lo !== undefined ? ` ≥ ${lo}${unit}` : hi !== undefined ? ` ≤ ${hi}${unit}` : '';
  switch (s.type) {
    case 'null':
      return 'null';
    case 'string': {
      const id = typeof s.pattern === 'string' ? /^\^([a-z]+_)\[/.exec(s.pattern) : null;
      if (id) return `id \`${id[1]}…\``;
      if (s.format) return `string (${s.format})`;
      return `string${range(s.minLength, s.maxLength, ' chars')}`;
    }
    case 'integer':
    case 'number':
      return `${s.type}${range(s.minimum, s.maximum)}`;
    case 'boolean':
      return 'boolean';
    case 'array': {
      const exactly = s.minItems !== undefined && s.minItems === s.maxItems;
      const count =
        s.minItems === 1 && s.maxItems === undefined
          ? ' (non-empty)'
          : exactly
            ? ` (${s.minItems} item${s.minItems === 1 ? '' : 's'})`
            : range(s.minItems, s.maxItems).replace(/^ (.*)$/, ' ($1 items)');
      return `array${count} of ${typeOf(s.items)}`;
    }
    case 'object':
      if (s.properties) return `object {${Object.keys(s.properties as Schema).join(', ')}}`;
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return `object of ${typeOf(s.additionalProperties as Schema)}`;
      return 'object';
    default:
      return 'any';
  }
}

function annotationLine(a: Record<string, unknown>): string {
  const kind = a.readOnlyHint ? 'read-only' : 'write';
  const flags = [
    `readOnlyHint ${a.readOnlyHint}`,
    `destructiveHint ${a.destructiveHint}`,
    `idempotentHint ${a.idempotentHint}`,
    `openWorldHint ${a.openWorldHint}`,
  ];
  return `${kind} (${flags.join(', ')})`;
}

function parametersTable(input: Schema): string[] {
  const props = (input.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>((input.required as string[] | undefined) ?? []);
  const names = Object.keys(props);
  if (names.length === 0) return ['No parameters.'];
  return [
    '| parameter | type | required | description |',
    '|---|---|---|---|',
    ...names.map((n) => `| \`${n}\` | ${cell(typeOf(props[n]))} | ${required.has(n) ? 'yes' : 'no'} | ${cell(props[n]!.description ?? '')} |`),
  ];
}

/** What comes back, from the published output schema: the envelope, the record kind, its fields. */
export function returnsOf(output: Schema): string {
  const props = (output.properties ?? {}) as Record<string, Schema>;
  const fields = (p: Record<string, Schema>) =>
    Object.keys(p)
      .filter((k) => k !== 'object')
      .map(code)
      .join(', ');
  if (props.object?.const === 'list') {
    const item = (props.data?.items ?? {}) as Schema;
    const kind = item.properties?.object?.const as string | undefined;
    const envelope = Object.keys(props)
      .filter((k) => k !== 'data')
      .map(code)
      .join(', ');
    const itemFields = item.properties ? ` Each item has ${fields(item.properties as Record<string, Schema>)}.` : '';
    return `A page: \`data\` is an array of ${kind ? code(kind) : 'records'} objects; the page also has ${envelope}.${itemFields}`;
  }
  const kind = props.object?.const as string | undefined;
  const what = kind ? `A ${code(kind)} object` : 'An object';
  const effects = props.effects ? ", with the API's `effects` object (what the call changed; `provider_writes` is always `[]`)" : '';
  const said = typeof output.description === 'string' ? ` ${output.description}` : '';
  return `${what}${effects}. Fields: ${fields(props)}.${said}`;
}

function toolSection(t: ToolDef): string[] {
  const p = publishedTool(t);
  const e = t.endpoint;
  return [
    `### \`${p.name}\``,
    '',
    `**${p.title}**. Toolset \`${t.toolset}\`; calls \`${e.method} ${e.path}\`; scope \`${e.scope ?? 'none'}\`; rate bucket \`${e.bucket}\`.`,
    '',
    `Annotations: ${annotationLine(p.annotations as Record<string, unknown>)}.`,
    '',
    p.description,
    '',
    ...(t.confirm
      ? [
          `Confirmation: with a client that supports elicitation, asks the person first ${t.confirm.asks ?? 'on every call'} (\`--confirm destructive\`, the default).`,
          '',
        ]
      : []),
    ...parametersTable(checkedInputSchema(t)),
    '',
    `Returns: ${returnsOf(checkedOutputSchema(t) as Schema)}`,
    '',
    `API errors of its own, besides those of keys, scopes and rate limits: ${e.errors.length ? e.errors.map(code).join(', ') : 'none'}.`,
    '',
  ];
}

export function renderToolsDoc(tools: readonly ToolDef[]): string {
  return [
    '# Tool reference',
    '',
    '<!-- Generated by scripts/gen-tools-doc.ts from the registry (tools/index.ts); do not edit. Run `npm run docs:tools`. -->',
    '',
    `Every tool the server can serve (${tools.length}), as \`tools/list\` publishes it. A key sees only the tools its`,
    'scopes allow; `--read-only` hides every write; `--toolsets` and `--tools` choose the rest. Arguments are strict:',
    'an unknown one is refused before any request. `workspace` is optional wherever the server has a default.',
    'Some forms agents send are taken for what they plainly mean: `cursor: null` is the first page, one value where a',
    'list is taken is a list of one, a `limit` over 200 is read as 200, and a day (`2026-11-24`) where a date-time is',
    'taken is its start in UTC; the answer lists the last two in `notices` (and a `Note:` line of the text).',
    'To keep the list small, the published schemas leave out what the server checks itself and states in its error',
    '(id prefixes, lengths, counts and ranges, the lead field names); the types below show those checks. The',
    "conventions every tool shares (ids, workspace, paging, fencing, costs) are in the server's instructions.",
    'The creates that are not idempotent (`create_task`, `create_note`) catch repeats per API key, across every session',
    'of the server and every instance sharing its Redis (`--redis`). The same call (same tool, workspace and arguments,',
    "in any order) as one that succeeded in the last 10 minutes answers `created: false` with the earlier object's id",
    '(`duplicate_of`) and creates nothing. One whose outcome is unknown (`outcome_unknown`: cancelled or timed out after',
    'it was sent, answered 2xx too large or unreadable, or 3xx) may have been applied: the same call is refused unsent',
    '(`duplicate_unsettled`) while it is in flight and afterwards, until `list_tasks` or `list_notes` for that lead has',
    'been read, or for 10 minutes. `allow_duplicate: true` creates another on purpose.',
    'Defaults are sized for triage: `list_leads` gives 20 rows, `get_conversation` the newest 10 messages, `get_lead`',
    'a card of the lead (contact, status, campaign, assignees, latest reply, counts of open tasks and notes). Batch calls:',
    '`mark_read`, `mark_unread`, `mark_responded` and `set_status` take up to 50 `lead_ids` (one request per lead, one',
    "table of each lead's outcome); `get_conversation` takes up to 10 `lead_ids` (the newest few messages of each).",
    'Both forms of a result carry the same fields: a null, empty list or empty object is left out of the text and of',
    '`structuredContent` alike (an absent field means none); a field asked for in `fields`, or set by the write, is',
    "shown even when null; `effects` are the API's, verbatim, in both. One exception: in `get_conversation` with",
    '`lead_ids`, a message without `from_name` and `from_email` is from the sender of the message before.',
    "Errors come back as tool results with `isError: true`: the API's error envelope and one sentence on what to do next.",
    'Results are compact by default, in the text and in `structuredContent` alike: a page of leads, meetings, event',
    'types or templates reads as a table whose header names every column (the JSON field names), false flags and',
    'empty values left out, what outsiders wrote fenced; a write answers with the id, the fields it set and `effects`',
    'verbatim, its text saying what it did ("unchanged" when the effects record no change, as a second',
    '`complete_task`). `view: "full"` gives whole records. Every result keeps within a byte budget (`--max-result-bytes`,',
    'default 24,576 bytes, both forms): a longer list is cut at an item, and `left_out` gives the count and the exact',
    'arguments that read the rest (`fetch_rest`; for a list, `next_cursor` continues right after the last item shown).',
    'With a client that supports elicitation, the consequential writes marked below ask the person first, and a',
    '`declined` answer means nothing was sent (`--confirm writes` asks for every write, `--confirm never` for none).',
    '',
    ...toolsetTable(tools, (t) => `[\`${t.name}\`](#${t.name})`),
    '',
    ...byToolset(tools).flatMap(([ts, list]) => [`## ${ts}`, '', ...list.flatMap(toolSection)]),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(TOOLS_DOC, renderToolsDoc(ALL_TOOLS));
  writeFileSync(README, renderReadme(readFileSync(README, 'utf8'), ALL_TOOLS));
  process.stderr.write(`wrote ${TOOLS_DOC} and the tool parts of ${README}\n`);
}
