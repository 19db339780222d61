import { type Fence, UNTRUSTED_LINE } from './fence.js';
import { isOutsideField } from './shape.js';
import { saidDone } from './unchanged.js';

type Row = Record<string, unknown>;

/** Every line break a model or a terminal honours, U+2028/2029 and a lone CR included. */
const BREAK = /[\r\n\u2028\u2029\u0085\v\f]/;
const BREAKS = /[\r\n\u2028\u2029\u0085\v\f]+/;

/**
 * An outsider's value on one line, with `|` escaped: no break in it can start a fake row
 * (numbered lines come after the table) and no ` | ` can fake another field. Split and
 * trimmed rather than matched with `\s*\n\s*`, which is quadratic on a long run of spaces.
 */
export function oneLine(v: string): string {
  const flat = BREAK.test(v)
    ? v
        .split(BREAKS)
        .map((s) => s.trim())
        .filter(Boolean)
        .join(' ')
    : v;
  return flat.includes('|') ? flat.replace(/\|/g, '\\|') : flat;
}

/** One of our facts, labelled: a true flag by its name, a plain value as is, anything else as JSON. */
function fact(k: string, v: unknown): string {
  if (v === true) return k;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' && /^[^\s,]+$/.test(x))) return `${k}=${v.join(',')}`;
  if (typeof v === 'string' && /^[^\s"]+$/.test(v)) return `${k}=${v}`;
  if (typeof v === 'number') return `${k}=${v}`;
  return `${k}=${JSON.stringify(v)}`;
}

/**
 * One record as labelled text: our facts as `field=value` in the open (true flags by their
 * name alone), then everything an outsider wrote in one fence, each part labelled too.
 * The labels are the JSON field names, so the text and structuredContent read alike.
 */
export function recordLines(r: Row, fence: Fence, kindOf = ''): { text: string; fenced: boolean } {
  const facts: string[] = [];
  const said: string[] = [];
  const kind = typeof r.object === 'string' ? r.object : kindOf;
  const field = (k: string) => `${k}: ${oneLine(r[k] as string)}`;
  for (const [k, v] of Object.entries(r)) {
    if (k === 'object' || v === null || v === undefined || v === false || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'string' && isOutsideField(k, v, kind)) {
      said.push(k);
      continue;
    }
    facts.push(fact(k, v));
  }
  const head = `- ${facts.join(' ')}`;
  return { text: said.length ? `${head}\n  ${fence.inline(said.map(field).join(' | '))}` : head, fenced: said.length > 0 };
}

/**
 * A page of records as a table: a header row names every column (the JSON field names),
 * one row per record. True flags share a `flags` cell; absent values are empty cells.
 * What outsiders wrote follows the table in one fence, a line per row, numbered as the
 * table's `#` column: one fence per page instead of one per cell keeps the page small.
 */
export function pageTable(page: { data: Row[]; has_more?: boolean; next_cursor?: string | null }, fence: Fence, noun: string, kind = ''): string {
  // Each row's outsider fields, found once: the columns, the cells and the fenced lines all ask.
  const outsideOf = page.data.map((r) => {
    const k0 = typeof r.object === 'string' ? r.object : kind;
    return new Set(Object.keys(r).filter((k) => typeof r[k] === 'string' && isOutsideField(k, r[k] as string, k0)));
  });
  const cols: string[] = [];
  const seen = new Set<string>();
  const said: string[] = [];
  let flags = false;
  page.data.forEach((r, i) => {
    for (const k of Object.keys(r)) {
      if (r[k] === true) flags = true;
      else if (outsideOf[i]!.has(k)) {
        if (!said.includes(k)) said.push(k);
      } else if (k !== 'object' && typeof r[k] !== 'boolean' && !seen.has(k)) {
        seen.add(k);
        cols.push(k);
      }
    }
  });
  if (flags) cols.splice(1, 0, 'flags');
  if (said.length) cols.unshift('#');
  const cell = (r: Row, k: string, i: number): string => {
    if (k === '#') return String(i + 1);
    if (k === 'flags')
      return Object.keys(r)
        .filter((f) => r[f] === true)
        .join(', ');
    const v = r[k];
    // A row's outsider value in a column that other rows fill plainly is shown in the fence below, never in the cell.
    if (v === null || v === undefined || outsideOf[i]!.has(k)) return '';
    const plain = Array.isArray(v) && v.every((x) => typeof x !== 'object') ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return oneLine(plain);
  };
  const n = page.data.length;
  const more = typeof page.next_cursor === 'string' ? `; more: pass cursor "${page.next_cursor}"` : '; more remain (see the last line)';
  const head = `${n} ${noun}${n === 1 ? '' : 's'}${page.has_more ? more : '; no more pages'}.`;
  const table = n
    ? [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...page.data.map((r, i) => `| ${cols.map((k) => cell(r, k, i)).join(' | ')} |`)]
    : [];
  // With one such field the line before the fence names it: each line need not.
  const label = (k: string) => (said.length === 1 ? '' : `${k}: `);
  const lines = page.data.flatMap((r, i) => {
    const parts = said.filter((k) => outsideOf[i]!.has(k)).map((k) => `${label(k)}${oneLine(r[k] as string)}`);
    return parts.length ? [`${i + 1}. ${parts.join(' | ')}`] : [];
  });
  if (!lines.length) return [head, ...table].join('\n');
  return [UNTRUSTED_LINE, head, ...table, `${said.join(', ')} by #:`, fence.wrap(lines.join('\n'), noun)].join('\n');
}

/** One record as labelled lines. */
export function oneLines(r: Row, fence: Fence, kind = ''): string {
  const { text, fenced } = recordLines(r, fence, kind);
  return fenced ? `${UNTRUSTED_LINE}\n${text}` : text;
}

/**
 * A write's answer: the record and the fields the write set, then the API's effects with
 * every key, verbatim. What the agent wrote itself is shown as its own, not fenced.
 */
export function writeLines(tool: string, r: Row, fence: Fence, own?: ReadonlySet<string>, did = 'now'): string {
  const kind = typeof r.object === 'string' ? r.object : '';
  const facts: string[] = [];
  let fenced = false;
  for (const [k, v] of Object.entries(r)) {
    if (k === 'object' || k === 'id' || k === 'effects' || v === undefined) continue;
    if (typeof v === 'string' && isOutsideField(k, v, kind) && !own?.has(v)) {
      facts.push(`${k}=${fence.inline(v)}`);
      fenced = true;
    } else facts.push(v === false ? `${k}=false` : v === null ? `${k}=null` : fact(k, v));
  }
  // What the write did comes first ("created", "deleted", "marked read"), then the fields as they now are.
  const head = `${tool}: ${kind} ${String(r.id)} ${saidDone(did, r.effects)}${facts.length ? `: ${facts.join(' ')}` : ''}`;
  return [...(fenced ? [UNTRUSTED_LINE] : []), head, `effects: ${JSON.stringify(r.effects ?? {})}`].join('\n');
}
