/**
 * The one place secrets are taken out of text: tool results, errors and logs all pass
 * through here. Two nets: the shape of any API key or session token, and the server's
 * own known secrets (its API key, the --http-token, each HTTP client's bearer key),
 * matched whatever their case, wherever they start or end, in percent-encoded (once or
 * twice), JSON-escaped or base64 form.
 */

import { Needles } from './needles.js';
import { setKey } from './own-key.js';

/** The shape of an API key or a session token; a separator may be percent-encoded (once or twice) or JSON-escaped. */
const SEP = '(?:_|%5f|%255f|\\\\u005f)';
const KEY_SHAPE = new RegExp(`(rik${SEP}[a-z]+${SEP}[a-z0-9]{8})${SEP}[a-z0-9]{32}|rims${SEP}[a-z0-9]{40}`, 'gi');

/** Known secrets, each with how many holders keep it (two clients may share one key). */
const known = new Map<string, number>();
/** Built on first use after a change, so registering many keys in a row costs one build, not one each. */
let knownPattern: RegExp | null = null;
let stale = false;

const escaped = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** One character as the text may carry it: itself (any case), its percent-encoded bytes (once or twice), its JSON escape. */
function charPattern(ch: string): string {
  const hex = [...Buffer.from(ch, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
  const percent = hex.map((h) => `%${h}`).join('');
  const twice = hex.map((h) => `%25${h}`).join('');
  const code = ch.codePointAt(0)!;
  const json = code <= 0xffff ? `|\\\\u${code.toString(16).padStart(4, '0')}` : '';
  return `(?:${escaped(ch)}|${percent}|${twice}${json}${ch === ' ' ? '|\\+' : ''})`;
}

/**
 * What any base64 (or base64url) text holding the secret must contain, for each of the three
 * alignments the secret can have: the groups made of the secret's bytes only.
 */
function base64Parts(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const whole = Math.floor((shift + bytes.length) / 3) * 4;
    const part = b64.slice(shift > 0 ? 4 : 0, whole);
    // Long enough not to strike ordinary text.
    if (part.length >= 12) out.push(part);
  }
  return out;
}

/** The base64 parts as patterns: `+` and `/` may be base64url's `-` and `_`. */
function base64Patterns(secret: string): string[] {
  return base64Parts(secret).map((part) => [...part].map((c) => (c === '+' ? '[+-]' : c === '/' ? '[/_]' : escaped(c))).join(''));
}

/**
 * What mayHoldSecret looks for, so that a text holding no secret is cleared with plain substring
 * searches: one alternation of every known secret's forms costs each text a try of every
 * alternative at every position (with 100 keys held, two thirds of a tool call's CPU).
 * Letters-and-digits secrets are looked for in the text decoded and lowercased, less their first
 * 5 characters (an escape just before a secret may eat up to 5 of them when decoded); their
 * base64 parts in the text lowercased with base64url's `-` and `_` as `+` and `/`. Any other
 * secret keeps the alternation. A text with no escape to decode is searched once for both
 * (`both`): the decoded forms hold letters and digits only, which that mapping leaves in place.
 */
interface Quick {
  decoded: Needles;
  base64: Needles;
  both: Needles;
  others: RegExp | null;
}
let quick: Quick = { decoded: new Needles([]), base64: new Needles([]), both: new Needles([]), others: null };

const QUICK_SECRET = /^[A-Za-z0-9]{16,}$/;
const ESCAPE = /%25([0-9a-f]{2})|%([0-9a-f]{2})|\\u00([0-9a-f]{2})/g;
const b64norm = (s: string) => s.toLowerCase().replace(/-/g, '+').replace(/_/g, '/');

function formsOf(secrets: string[]): string[] {
  return secrets.flatMap((s) => [[...s].map(charPattern).join(''), ...base64Patterns(s)]);
}

function pattern(): RegExp | null {
  if (stale) {
    const all = [...known.keys()];
    const forms = formsOf(all);
    knownPattern = forms.length === 0 ? null : new RegExp(forms.join('|'), 'gi');
    const fast = all.filter((s) => QUICK_SECRET.test(s));
    const others = formsOf(all.filter((s) => !QUICK_SECRET.test(s)));
    const decoded = fast.map((s) => s.slice(5).toLowerCase());
    const base64 = fast.flatMap((s) => base64Parts(s)).map(b64norm);
    quick = {
      decoded: new Needles(decoded),
      base64: new Needles(base64),
      both: new Needles([...decoded, ...base64]),
      others: others.length === 0 ? null : new RegExp(others.join('|'), 'gi'),
    };
    stale = false;
  }
  return knownPattern;
}

/** Whether a known secret may be in the text, by substring searches (quick above; Needles makes them one pass). */
function quickHit(text: string): boolean {
  const lower = text.toLowerCase();
  const b64 = lower.includes('-') || lower.includes('_') ? b64norm(lower) : lower;
  if (!lower.includes('%') && !lower.includes('\\')) {
    if (quick.both.foundIn(b64)) return true;
  } else {
    const decoded = lower.replace(ESCAPE, (_m, a, b, c) => String.fromCharCode(Number.parseInt(a ?? b ?? c, 16)).toLowerCase());
    if (quick.decoded.foundIn(decoded) || quick.base64.foundIn(b64)) return true;
  }
  if (!quick.others) return false;
  quick.others.lastIndex = 0;
  return quick.others.test(text);
}

/** What of a secret to look for: the 32-character secret part of an API key, or the whole string. */
function coreOf(secret: string): string {
  const m = /^rik_[a-z]+_[A-Za-z0-9]{8}_([A-Za-z0-9]{32})$/.exec(secret);
  return m ? m[1]! : secret;
}

/**
 * Make a secret known to every redaction; the returned function forgets it again (when
 * its last holder lets go). Secrets shorter than 8 characters are refused: they would
 * redact ordinary words.
 */
export function registerSecret(secret: string): () => void {
  const core = coreOf(secret);
  if (core.length < 8) throw new TypeError('a secret to redact must be at least 8 characters long');
  known.set(core, (known.get(core) ?? 0) + 1);
  if (known.get(core) === 1) stale = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (known.get(core) ?? 1) - 1;
    if (n > 0) known.set(core, n);
    else {
      known.delete(core);
      stale = true;
    }
  };
}

/** Whether the text may hold a secret in any of the forms redactSecrets removes. */
export function mayHoldSecret(text: string): boolean {
  KEY_SHAPE.lastIndex = 0;
  if (KEY_SHAPE.test(text)) return true;
  return pattern() !== null && quickHit(text);
}

/** Replace every known secret with `…` and every key-shaped string with its public handle. */
export function redactSecrets(text: string): string {
  const secrets = pattern();
  const out = secrets ? text.replace(secrets, '…') : text;
  return out.replace(KEY_SHAPE, (_m, handle: string | undefined) => (handle ? `${handle}_…` : 'rims_…'));
}

/** How a text is cleaned: of the known secrets, or of those and one more (`withSecret`). */
export interface Redactor {
  mayHold(text: string): boolean;
  redact(text: string): string;
}

/** The known secrets: what every answer, error and log line is cleaned of. */
export const knownSecrets: Redactor = { mayHold: mayHoldSecret, redact: redactSecrets };

/**
 * The known secrets and one key that is not registered (yet): the key a probe is asking the
 * API about. Its forms are compiled for this one use and dropped with it, so a flood of
 * made-up keys leaves no pattern behind, while an answer made with the key never holds it.
 */
export function withSecret(secret: string): Redactor {
  const core = coreOf(secret);
  if (core.length < 8) return knownSecrets;
  const own = new RegExp(formsOf([core]).join('|'), 'gi');
  return {
    mayHold: (text) => {
      own.lastIndex = 0;
      return own.test(text) || mayHoldSecret(text);
    },
    redact: (text) => redactSecrets(text.replace(own, '…')),
  };
}

/** A JSON-like value with every string (keys too) redacted; the value itself when nothing needed it. */
export function redactDeep<T>(value: T, r: Redactor = knownSecrets): T {
  if (typeof value === 'string') return r.redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, r)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setKey(out, r.redact(k), redactDeep(v, r));
    return out as T;
  }
  return value;
}

/** Only plain data is walked: an Error, a Buffer or a class instance is left to its own serializer. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
