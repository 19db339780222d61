import { ResourceTemplate } from '@modelcontextprotocol/server';
import { isDay } from '../../../api/dates.js';
import { ToolError } from '../../errors.js';
import { TEMPLATE, URI } from '../../view/links.js';
import { shortenToFit, within, withinBudget } from '../../view/result-budget.js';
import { workspaceOr } from '../access.js';
import { budgetOf, JSON_TYPE, LISTED_LEADS, one, type ResourceKit, type Row, text } from './kit.js';
import { type LeadsPage, leadRows, leadsBody } from './leads.js';

const WHAT = 'leads changed-since resource';

/** The `since` of the URI as an instant (a day as its start in UTC, as tools read one; the answer's `since` shows it), or a refusal that says what it takes. */
function sinceOf(raw: string | undefined): string {
  const given = raw === undefined ? '' : decodeURIComponent(raw);
  const since = isDay(given) ? `${given}T00:00:00Z` : given;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(since) || Number.isNaN(Date.parse(since))) {
    throw new ToolError(
      'invalid_request',
      WHAT,
      `since must be a date-time (2026-11-25T10:00:00Z) or a day (2026-11-25, its start in UTC), the "changes" or "next" of an earlier read; got '${given}'.`,
      {
        status: 400,
        param: 'since',
      },
    );
  }
  return since;
}

/**
 * How many of the rows (oldest change first) to show: as many as fit, stepping back from a
 * cut that would split leads of one timestamp, since the next read asks strictly after it.
 */
function shownCount(rows: Row[], fits: (k: number) => boolean): number {
  let k = Math.min(rows.length, LISTED_LEADS);
  while (k > 0 && !fits(k)) k--;
  const at = (i: number) => rows[i]?.last_message_at;
  let tied = k;
  while (tied > 0 && tied < rows.length && at(tied - 1) === at(tied)) tied--;
  return tied > 0 ? tied : k;
}

/**
 * inbox://{workspace}/leads?since=…: only the leads whose newest message is strictly after
 * `since` (list_leads updated_since, oldest change first), one request per read. `next` is
 * the URI to read after the next notification; with `more`, read it now for the rest.
 */
export function registerLeadsSince(kit: ResourceKit): void {
  const { mcp } = kit;
  mcp.registerResource(
    'leads-changed',
    new ResourceTemplate(TEMPLATE.leadsSince, { list: undefined, complete: kit.workspaceOnly }),
    {
      title: 'Leads changed since',
      description: `The leads with a message newer than since (the "changes" of the leads resource or the "next" of this one), oldest first, at most ${LISTED_LEADS} a read, as JSON: after a notification of new replies, read only what changed.`,
      mimeType: JSON_TYPE,
    },
    kit.guarded(WHAT, async (uri, vars, extra, { access }) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const since = sinceOf(one(vars.since));
      // One more than shown: it tells whether the cut splits leads of one timestamp.
      const query = { updated_since: since, order: 'asc', limit: LISTED_LEADS + 1 } as const;
      const page: LeadsPage = (await access.api.call('list_leads', { path: { workspace: ws }, query, signal: extra.signal })).data;
      const rows = leadRows(page);
      const body = (shown: Row[]) => {
        const last = shown.at(-1)?.last_message_at;
        const next = typeof last === 'string' ? last : since;
        const more = shown.length < rows.length || page.has_more === true;
        return leadsBody(ws, shown, { since, changed: shown.length, more, next: URI.leadsSince(ws, next) });
      };
      const k = shownCount(rows, (n) => within(body(rows.slice(0, n)), budgetOf(access)));
      const shown = rows.slice(0, k);
      const fitted = k > 0 || rows.length === 0 ? shown : (shortenToFit(rows.slice(0, 1), (v) => within(body(v), budgetOf(access))) ?? rows.slice(0, 1));
      return text(uri, JSON_TYPE, withinBudget(body(fitted), budgetOf(access), WHAT));
    }),
  );
}
