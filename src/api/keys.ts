/**
 * API key format (Authentication rule 2): <prefix>_<environment>_<8-char public handle>_<32-char secret>.
 * Only the handle is safe to show.
 */
export const API_KEY_FORMAT = /^rik_(live|test)_([A-Za-z0-9]{8})_([A-Za-z0-9]{32})$/;

/** The public handle of a well-formed key (safe to show and log); null for anything else. */
export function keyHandleOf(key: string): string | null {
  return API_KEY_FORMAT.exec(key)?.[2] ?? null;
}
