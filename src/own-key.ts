/**
 * Set a key of a plain object as data, `__proto__` included: plain assignment takes that one
 * for the object's prototype, which drops a booking form's question of that name (or makes
 * its answer the copy's prototype). Code that copies outsiders' objects key by key uses this.
 */
export function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
