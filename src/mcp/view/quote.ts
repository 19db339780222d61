import { neutralise } from './fence.js';

/**
 * Marks that could close or fake our « » quotes, or pass for a tag, wherever they come
 * from: guillemets and their single, double, mathematical, CJK and ornamental look-alikes,
 * angle brackets of every width, and double quotation marks of every style.
 */
const QUOTE_LOOKALIKES = /[«»‹›≪≫《》〈〉⟨⟩⟪⟫❮❯❰❱⹂<>＜＞﹤﹥"“”„‟〝〞〟＂❝❞]/g;

/**
 * Outsider text (a lead's name or address) for a sentence a person reads, such as a
 * confirmation question: invisible characters gone, one line, at most `max` characters,
 * and inside « » that nothing in it can close or imitate, so it never passes for the
 * server's own words. Null for no text.
 */
export function quoted(text: unknown, max = 60): string | null {
  if (typeof text !== 'string') return null;
  const flat = neutralise(text).replace(QUOTE_LOOKALIKES, '').split(/\s+/).filter(Boolean).join(' ');
  if (flat === '') return null;
  return `«${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}»`;
}

/** A value the API gives from a closed list (a status, an outcome) or a day: plain when it looks like one, else quoted. */
export const word = (v: unknown): string =>
  typeof v === 'string' && (/^[a-z_]{1,40}$/.test(v) || /^\d{4}-\d{2}-\d{2}$/.test(v)) ? v : (quoted(v, 30) ?? 'none');

/**
 * A reason from elsewhere (a client's malformed answer, a library's validation dump) as one
 * short line: its first line, invisible characters gone, at most `max` characters.
 */
export function oneLineReason(text: string, max = 120): string {
  const first =
    neutralise(text)
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  const flat = first.split(/\s+/).filter(Boolean).join(' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
