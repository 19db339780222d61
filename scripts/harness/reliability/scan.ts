import { SANDBOX_KEYS } from '../../../src/sandbox/seed/keys.js';

/* Scanners of answers: key secrets, fenced blocks, invisible characters. */

// Secrets

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

// Fences

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

/** A value as it was before it was fenced inline (`<untrusted-…>value</untrusted-…>`), for comparing it with the API's. */
export function withoutFence<T>(value: T): T {
  return (typeof value === 'string' ? value.replace(/^<(untrusted-[0-9a-f]{6})>([\s\S]*)<\/\1>$/, '$2') : value) as T;
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
