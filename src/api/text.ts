/** Steps htmlToText's scans took (characters read), for tests that check they stay linear: a count, never a clock. */
export const htmlSteps = { count: 0 };

/**
 * A message's body_text, as the spec defines it: the HTML with tags collapsed, fit for
 * reading, not for rendering and not sanitised. Script and style blocks carry no text.
 * Every step is one pass over the text: the regexes `<[^>]*>` and
 * `<(script|style)…<\/\1>` it replaces took quadratic time on a run of `<` without `>`.
 */
export function htmlToText(html: string): string {
  return stripTags(dropBlocks(html))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCK_OPEN = /<(script|style)\b/gi;
const BLOCK_CLOSE = { script: /<\/script\s*>/gi, style: /<\/style\s*>/gi } as const;
/** Tags that end a line of text. */
const LINE_TAG = /^<(?:br\s*\/?|\/(?:p|div|li|tr|h\d|blockquote))>$/i;

/** Script and style blocks removed: each opening finds its close once; a kind with no close left is not looked for again. */
function dropBlocks(html: string): string {
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  BLOCK_OPEN.lastIndex = 0;
  for (let open = BLOCK_OPEN.exec(html); open; open = BLOCK_OPEN.exec(html)) {
    const kind = open[1]!.toLowerCase() as keyof typeof BLOCK_CLOSE;
    if (unclosed.has(kind)) continue;
    const close = BLOCK_CLOSE[kind];
    close.lastIndex = open.index + open[0].length;
    const end = close.exec(html);
    htmlSteps.count += (end ? end.index + end[0].length : html.length) - open.index;
    if (!end) {
      unclosed.add(kind);
      continue;
    }
    out += html.slice(copied, open.index);
    copied = close.lastIndex;
    BLOCK_OPEN.lastIndex = copied;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** Every `<…>` removed (a line break where it ends a line); a `<` with no `>` after it, and all after it, stays as text. */
function stripTags(html: string): string {
  let out = '';
  let from = 0;
  for (let lt = html.indexOf('<'); lt >= 0; lt = html.indexOf('<', from)) {
    const gt = html.indexOf('>', lt);
    htmlSteps.count += (gt < 0 ? html.length : gt + 1) - from;
    if (gt < 0) break;
    out += html.slice(from, lt) + (LINE_TAG.test(html.slice(lt, gt + 1)) ? '\n' : '');
    from = gt + 1;
  }
  return from === 0 ? html : out + html.slice(from);
}
