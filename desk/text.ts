export { unfence } from './fence.js';

/** A date-time in the person's zone and language (the host's, else the browser's). */
/** One formatter per locale and zone: building one costs more than formatting with it, and a board formats a date a row. */
const formats = new Map<string, Intl.DateTimeFormat>();
/** A message's date in full; a row's without the year, to fit a narrow line. */
const STYLES = {
  full: { dateStyle: 'medium', timeStyle: 'short' },
  row: { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function formatOf(locale: string | undefined, timeZone: string | undefined, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const k = `${locale ?? ''}|${timeZone ?? ''}|${style}`;
  let f = formats.get(k);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone });
    } catch {
      f = new Intl.DateTimeFormat(undefined, STYLES[style]);
    }
    formats.set(k, f);
  }
  return f;
}

/**
 * Build the formatters a first view uses while the app waits on the host: in a fresh frame the
 * first one loads the language's calendar data, which would otherwise delay the first view.
 */
export function warmDates(): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const style of ['row', 'full'] as const) formatOf(navigator.language, zone, style).format(0);
}

export function when(iso: unknown, zone: { timeZone?: string; locale?: string }, style: keyof typeof STYLES = 'full'): string {
  if (typeof iso !== 'string' || !iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatOf(zone.locale, zone.timeZone, style).format(d);
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Web and mail addresses in a body: shown as buttons that ask the host to open them, never as live links. */
const URL_LIKE = /\b(?:https?:\/\/|mailto:)[^\s<>"']+/gi;

export interface Piece {
  text: string;
  url?: string;
}

export function linkPieces(text: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_LIKE)) {
    const url = m[0].replace(/[.,;:!?)\]]+$/, '');
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: url, url });
    last = m.index + url.length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** HTML to the text a person reads, parsed in an inert document: nothing in it loads or runs. */
export function htmlText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const br of doc.querySelectorAll('br')) br.replaceWith('\n');
  for (const p of doc.querySelectorAll('p, div, li')) p.append('\n');
  return (doc.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}
