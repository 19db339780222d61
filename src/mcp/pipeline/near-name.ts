/** Edits (insert, delete, replace one character) that turn a into b. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The one name a mistyped or guessed name most likely meant (get_leads: get_lead), or
 * undefined when none is close: at most two edits, and fewer than a third of the name.
 */
export function nearName(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.min(2, Math.floor(name.length / 3));
  for (const n of names) {
    const d = distance(name, n);
    if (d > 0 && (d < bestD || (d === bestD && best === undefined))) [best, bestD] = [n, d];
  }
  return best;
}
