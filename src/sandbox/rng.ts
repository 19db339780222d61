/** A small seeded PRNG (mulberry32): same seed, same data, byte for byte. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** A fresh generator derived from this seed and a label, independent of call order elsewhere. */
  static derive(seed: number, label: string | number): Rng {
    let h = 2166136261 ^ seed;
    for (const ch of String(label)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    return new Rng(h >>> 0);
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** An opaque id tail of lowercase letters and digits. */
  token(length = 12): string {
    const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let s = '';
    for (let i = 0; i < length; i++) s += abc[Math.floor(this.next() * abc.length)];
    return s;
  }
}
