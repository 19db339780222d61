/**
 * Fence: what an outsider's text can cost the server. The fake-tag check and the
 * HTML-to-text step on adversarial input of 10k and 100k characters, as they were (the
 * regexes, kept here as the reference) and as they are (linear scanners); then, end to
 * end, list_leads {} over a lead whose name is 20,000 characters of `<` and spaces, and a
 * ping sent while it runs. REPLY_INBOX_BENCH_BIN runs the end-to-end part on another build.
 */
import { performance } from 'node:perf_hooks';
import { htmlToText } from '../../src/api/text.js';
import { Fence, neutralise } from '../../src/mcp/view/fence.js';
import { MCP_BIN, type Section, median, mcpSession, round, sandbox, UNMETERED } from './lib.js';

/** The check as it was: quadratic on `<` and a run of spaces. */
const OLD_FAKE_TAG = /<\s*(\/?)\s*untrusted/gi;
const oldFence = (text: string) => neutralise(text).replace(OLD_FAKE_TAG, '‹$1untrusted');
/** The tag strip as it was: quadratic on a run of `<`. */
const oldHtml = (html: string) =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h\d|blockquote)>/gi, '\n')
    .replace(/<[^>]*>/g, '');

const spaces = (n: number) => `<${' \u00A0\u2003'.repeat(Math.ceil(n / 3)).slice(0, n - 1)}`;
const angles = (n: number) => '<'.repeat(n);

function ms(f: () => unknown, reps: number): number {
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  return median(t);
}

function micro(): Section {
  const fence = new Fence();
  const rows = [];
  for (const n of [10_000, 100_000]) {
    // The old forms at 100k take seconds each: measured once.
    const oldReps = n > 10_000 ? 1 : 3;
    rows.push([
      `fence check, \`<\` + ${n.toLocaleString('en')} spaces`,
      round(ms(() => oldFence(spaces(n)), oldReps)),
      round(ms(() => fence.wrap(spaces(n), 'body'), 9)),
    ]);
    rows.push([`html-to-text, ${n.toLocaleString('en')} \`<\``, round(ms(() => oldHtml(angles(n)), oldReps)), round(ms(() => htmlToText(angles(n)), 9))]);
  }
  return {
    title: 'Fence: adversarial outsider text (ms, median)',
    note: 'The fake-tag check and the HTML-to-text step on adversarial input, before (the old regexes) and after (the linear scanners).',
    columns: ['input', 'before ms', 'after ms'],
    rows,
  };
}

async function endToEnd(): Promise<Section> {
  const sb = await sandbox(UNMETERED);
  // The newest lead: the first row of list_leads {}.
  const lead = sb.store.sortedLeads('acme').at(-1)!;
  lead.first_name = spaces(20_000);
  const bin = process.env.REPLY_INBOX_BENCH_BIN;
  const s = await mcpSession(sb, { bin });
  const rows = [];
  try {
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      let done = false;
      const call = s.client.callTool({ name: 'list_leads', arguments: {} }).then(() => {
        done = true;
        return performance.now() - t;
      });
      // A ping every 50 ms while the call runs: the longest wait is how long the server could not answer anyone.
      let longest = 0;
      while (!done) {
        const p = performance.now();
        await Promise.race([s.client.ping(), call]);
        if (!done) longest = Math.max(longest, performance.now() - p);
        await new Promise((r) => setTimeout(r, 50));
      }
      rows.push([`list_leads {} #${i + 1}`, round(await call), round(longest)]);
    }
  } finally {
    await s.close();
    await sb.close();
  }
  return {
    title: 'Fence: list_leads {} with a 20,000-character lead name of `<` and spaces (ms)',
    note: `The newest lead's first name is \`<\` and 19,999 spaces; pings go every 50 ms while the call runs, and the longest wait is shown (${bin ?? MCP_BIN}).`,
    columns: ['call', 'list_leads ms', 'longest ping ms'],
    rows,
  };
}

export async function fence(): Promise<Section[]> {
  return [micro(), await endToEnd()];
}
