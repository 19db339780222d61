/**
 * Whether a write's `effects` record no change at all: every flag false, every list and object
 * empty (a second mark_responded, a second complete_task). Its answer then says "unchanged"
 * instead of the verb of the write, which would claim a change the API did not make.
 */
export function recordsNoChange(effects: unknown): boolean {
  if (!effects || typeof effects !== 'object' || Array.isArray(effects)) return false;
  const values = Object.values(effects);
  return values.length > 0 && values.every(isNothing);
}

function isNothing(v: unknown): boolean {
  if (v === false || v === null || v === 0 || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isNothing);
  return false;
}

/** What an answer says the write did: its verb, or that the API's effects record no change. */
export const UNCHANGED = "unchanged (the API's effects record no change)";
export const saidDone = (did: string, effects: unknown): string => (recordsNoChange(effects) ? UNCHANGED : did);
