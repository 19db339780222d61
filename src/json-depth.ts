/**
 * Whether JSON text nests brackets past `max`, counted outside strings without parsing: one
 * pass, no recursion, so a message or an answer nested thousands deep is told apart before any
 * recursive code (a schema check, a redaction, a view) would overflow the stack on it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
