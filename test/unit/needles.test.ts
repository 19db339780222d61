import { describe, expect, it } from 'vitest';
import { Needles } from '../../src/needles.js';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}
const ALPHABET = 'ab01+/-_%\\u';
const word = (next: () => number, length: number) => Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');

describe('Needles: whether a text holds any of many fixed strings', () => {
  it('answers as a search for each needle would, for needles of several lengths, at the start, the end and inside', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const needles = Array.from({ length: 1 + Math.floor(next() * 6) }, () => word(next, 1 + Math.floor(next() * 5)));
      const text = word(next, Math.floor(next() * 40));
      expect(new Needles(needles).foundIn(text), `${JSON.stringify(needles)} in ${JSON.stringify(text)}`).toBe(needles.some((n) => text.includes(n)));
    }
  });

  it('finds a long needle wherever it sits among 100 others, and nothing in a text without one', () => {
    const next = random(11);
    const needles = Array.from({ length: 100 }, () => word(next, 27));
    const set = new Needles(needles);
    const filler = 'x'.repeat(500);
    expect(set.foundIn(filler)).toBe(false);
    for (const n of [needles[0]!, needles[57]!, needles[99]!]) {
      expect(set.foundIn(`${n}${filler}`)).toBe(true);
      expect(set.foundIn(`${filler}${n}`)).toBe(true);
      expect(set.foundIn(`${filler}${n}${filler}`)).toBe(true);
      expect(set.foundIn(`${filler}${n.slice(0, -1)}${filler}`)).toBe(false);
    }
  });

  it('holds nothing when given nothing (or only empty strings), and a text shorter than every needle holds none', () => {
    expect(new Needles([]).foundIn('anything')).toBe(false);
    expect(new Needles(['']).foundIn('anything')).toBe(false);
    expect(new Needles(['abcdef']).foundIn('abcde')).toBe(false);
  });
});
