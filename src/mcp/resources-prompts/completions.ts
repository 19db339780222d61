import type { QueryOf } from '../../api/endpoints.js';
import { isWorkspaceSlug } from '../../api/ids.js';
import { type InboxAccess, hasScope } from './access.js';

/** At most this many values per completion: a picker, not a listing. */
export const MAX_COMPLETIONS = 20;
/** The API's bounds on a lead search (Limits: q is 1..160 characters). */
const Q_MAX = 160;
/** A typed id prefix is matched over the newest page of this size (the API cannot search ids). */
const ID_SCAN = 200;

type Context = { arguments?: Record<string, string> } | undefined;

const lower = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : '');

/** The workspace a completion is for: the one already chosen in the request, else the server's default. */
function workspaceFor(access: InboxAccess, context: Context): string | null {
  const given = context?.arguments?.workspace;
  const ws = given !== undefined && given !== '' ? given : access.defaultWorkspace();
  return ws !== undefined && isWorkspaceSlug(ws) ? ws : null;
}

/** A page's rows that carry an id. */
const listed = <T extends { id?: unknown }>(page: { data?: readonly T[] }) => (page.data ?? []).filter((x) => typeof x.id === 'string');

/** One page of each list a completion reads. */
const leadsPage = async (access: InboxAccess, workspace: string, query: QueryOf<'list_leads'>) =>
  listed((await access.api.call('list_leads', { path: { workspace }, query })).data);
const templatesPage = async (access: InboxAccess, workspace: string) =>
  listed((await access.api.call('list_templates', { path: { workspace }, query: { limit: ID_SCAN } })).data);
const membersPage = async (access: InboxAccess, workspace: string) =>
  listed((await access.api.call('list_members', { path: { workspace }, query: { limit: ID_SCAN } })).data);

/**
 * A completer never fails the request: a failed look-up (budget spent, scope missing)
 * completes nothing, and the client keeps what was typed.
 */
function quiet(access: InboxAccess, what: string, fn: (value: string, context: Context) => Promise<string[]>) {
  return async (value: string | undefined, context?: Context): Promise<string[]> => {
    try {
      return (await fn(value ?? '', context)).slice(0, MAX_COMPLETIONS);
    } catch (err) {
      access.failed(err, what);
      return [];
    }
  };
}

/** Workspace slugs the key reaches, by typed prefix. */
export function completeWorkspace(access: InboxAccess) {
  return (value: string | undefined): string[] => {
    const typed = lower(value);
    return access
      .workspaces()
      .filter((w) => w.startsWith(typed))
      .slice(0, MAX_COMPLETIONS);
  };
}

/**
 * Lead ids by what was typed: nothing gives the newest leads; a lead_ prefix is matched
 * against the newest page of ids; anything else is the API's prefix search q (names,
 * email, company, title, subject), newest first.
 */
export function completeLead(access: InboxAccess) {
  return quiet(access, 'completion of lead', async (value, context) => {
    const ws = workspaceFor(access, context);
    if (!ws || !hasScope(access, 'leads:read')) return [];
    const typed = value.trim();
    if (typed === '') return (await leadsPage(access, ws, { limit: MAX_COMPLETIONS })).map((l) => l.id);
    if (/^lead_/i.test(typed)) {
      const prefix = typed.toLowerCase();
      return (await leadsPage(access, ws, { limit: ID_SCAN })).map((l) => l.id).filter((id) => id.toLowerCase().startsWith(prefix));
    }
    return (await leadsPage(access, ws, { q: typed.slice(0, Q_MAX), limit: MAX_COMPLETIONS })).map((l) => l.id);
  });
}

/** Template ids whose id or name starts with what was typed (case-insensitive). */
export function completeTemplate(access: InboxAccess) {
  return quiet(access, 'completion of template', async (value, context) => {
    const ws = workspaceFor(access, context);
    if (!ws || !hasScope(access, 'templates:read')) return [];
    const typed = lower(value.trim());
    const all = await templatesPage(access, ws);
    return all.filter((t) => lower(t.id).startsWith(typed) || lower(t.name).startsWith(typed)).map((t) => t.id);
  });
}

/**
 * Two-part member ids (the lead assignee filter's form) by id, name or email prefix, and
 * "none" for unassigned leads. Every member, not only the assignable ones: leads stay
 * assigned to a rep who left.
 */
export function completeAssignee(access: InboxAccess) {
  return quiet(access, 'completion of assignee', async (value, context) => {
    const typed = lower(value.trim());
    const none = 'none'.startsWith(typed) ? ['none'] : [];
    const ws = workspaceFor(access, context);
    if (!ws || !hasScope(access, 'members:read')) return none;
    const members = await membersPage(access, ws);
    const hits = members.filter((m) => [m.id, m.name, m.email].some((v) => lower(v).startsWith(typed))).map((m) => m.id);
    return [...hits, ...none];
  });
}

/** Fixed choices by typed prefix (report windows, counts). */
export function completeFrom(choices: readonly string[]) {
  return (value: string | undefined): string[] => choices.filter((c) => c.startsWith((value ?? '').trim())).slice(0, MAX_COMPLETIONS);
}
