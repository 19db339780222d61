/**
 * Whether a text holds any of many fixed strings, in one pass over the text instead of one
 * search per needle: each window of the text as long as the shortest needle is hashed as it
 * slides (a rolling polynomial hash, 32-bit), and only where that hash is the hash of a
 * needle's first characters is the needle compared. With 100 keys held, the redaction
 * pre-check looked for 400 needles in every API answer; searched one by one, that cost about
 * 50 µs an 840-byte answer.
 */
export class Needles {
  /** The window: the length of the shortest needle (0 when there is none). */
  private readonly width: number;
  /** B^(width-1), to take a window's first character out of its hash. */
  private readonly top: number;
  /** The needles by the hash of their first `width` characters. */
  private readonly byHash = new Map<number, string[]>();
  /** Which low 16 bits of those hashes occur: most windows are dismissed here, without a map lookup. */
  private readonly seen = new Uint8Array(1 << 16);

  constructor(needles: readonly string[]) {
    const all = [...new Set(needles)].filter((n) => n.length > 0);
    this.width = all.length === 0 ? 0 : Math.min(...all.map((n) => n.length));
    this.top = power(this.width - 1);
    for (const n of all) {
      const h = hashOf(n, this.width);
      this.seen[h & 0xffff] = 1;
      this.byHash.set(h, [...(this.byHash.get(h) ?? []), n]);
    }
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Whether `text` holds any needle. */
  foundIn(text: string): boolean {
    const L = this.width;
    if (L === 0 || text.length < L) return false;
    let h = hashOf(text, L);
    for (let end = L; ; end++) {
      if (this.seen[h & 0xffff] === 1 && this.byHash.get(h)?.some((n) => text.startsWith(n, end - L))) return true;
      if (end === text.length) return false;
      h = (Math.imul(h - Math.imul(text.charCodeAt(end - L), this.top), BASE) + text.charCodeAt(end)) | 0;
    }
  }
}

const BASE = 0x01000193;

function power(n: number): number {
  let p = 1;
  for (let i = 0; i < n; i++) p = Math.imul(p, BASE);
  return p;
}

/** The hash of the first `length` characters of `s`. */
function hashOf(s: string, length: number): number {
  let h = 0;
  for (let i = 0; i < length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return h;
}
