/** A template token, as the API writes it: {{ name }}. */
const TOKEN = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

export type SegKind = 'lead' | 'override' | 'unresolved';

/** A run of the rendered text: literal template text, or the value that filled a token. */
export interface Segment {
  text: string;
  name?: string;
  kind?: SegKind;
}

/**
 * The rendered text cut into the template's literal text and the values that filled its
 * tokens, by walking the template's literal pieces through the rendered text in order. When
 * the walk cannot be sure (no template, two tokens side by side, a value that repeats the text
 * after it), only tokens left literal are marked, which the rendered text shows by itself.
 */
export function segments(template: string | null, rendered: string, overrides: Readonly<Record<string, string>>): Segment[] {
  return (template !== null && aligned(template, rendered, overrides)) || literalTokens(rendered);
}

function aligned(template: string, rendered: string, overrides: Readonly<Record<string, string>>): Segment[] | null {
  const literals: string[] = [];
  const names: { name: string; literal: string }[] = [];
  let last = 0;
  for (const m of template.matchAll(TOKEN)) {
    literals.push(template.slice(last, m.index));
    names.push({ name: m[1]!, literal: m[0] });
    last = m.index + m[0].length;
  }
  literals.push(template.slice(last));
  if (!rendered.startsWith(literals[0]!)) return null;
  const out: Segment[] = literals[0] ? [{ text: literals[0] }] : [];
  let pos = literals[0]!.length;
  for (let i = 0; i < names.length; i++) {
    const after = literals[i + 1]!;
    const isLast = i === names.length - 1;
    if (!isLast && after === '') return null;
    const end = isLast ? rendered.length - after.length : rendered.indexOf(after, pos);
    if (end < pos || (isLast && !rendered.endsWith(after))) return null;
    const value = rendered.slice(pos, end);
    const { name, literal } = names[i]!;
    const kind: SegKind = value === literal ? 'unresolved' : Object.hasOwn(overrides, name) ? 'override' : 'lead';
    out.push({ text: value, name, kind });
    if (after) out.push({ text: after });
    pos = end + after.length;
  }
  return out;
}

function literalTokens(rendered: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of rendered.matchAll(TOKEN)) {
    if (m.index > last) out.push({ text: rendered.slice(last, m.index) });
    out.push({ text: m[0], name: m[1]!, kind: 'unresolved' });
    last = m.index + m[0].length;
  }
  if (last < rendered.length) out.push({ text: rendered.slice(last) });
  return out;
}

/** Each token's value in this rendering (the first seen), for the fields a person edits. */
export function valuesOf(segs: readonly Segment[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of segs) if (s.name && s.kind !== 'unresolved' && !Object.hasOwn(out, s.name)) out[s.name] = s.text;
  return out;
}
