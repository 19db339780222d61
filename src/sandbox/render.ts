import type { Store } from './store/store.js';
import type { LeadRec, TemplateRec, UserRec, WorkspaceRec } from './store/types.js';
import { SORT } from './store/store.js';
import { compareKeys } from './paging.js';

/** A {{token}} placeholder; whitespace inside the braces is tolerated, as editors insert it. */
const TOKEN = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

/** Booking page used by cal_link when the workspace has no public event type. */
export const FALLBACK_BOOKING_URL = 'https://book.replyinbox.example';

/** Token names in order of first appearance, without repeats. */
export function tokensOf(...texts: (string | null)[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const m of (text ?? '').matchAll(TOKEN)) seen.add(m[1] as string);
  return [...seen];
}

export interface RenderInput {
  store: Store;
  template: TemplateRec;
  lead: LeadRec;
  ws: WorkspaceRec;
  owner: UserRec;
  now: Date;
  overrides: Readonly<Record<string, string>>;
  /** Whether the key owner may see a record another person made private. */
  canSee: (rec: { visibility: string; created_by_id: string | null }) => boolean;
}

export interface Rendered {
  subject: string | null;
  body: string;
  resolved: string[];
  unresolved: string[];
}

export function quarterOf(d: Date): string {
  return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()}`;
}

/** cal_link: the first active public event type with a URL, else the fixed booking page. */
export function calLink(store: Store, ws: WorkspaceRec): string {
  const types = store.eventTypes
    .inGroup(ws.id)
    .filter((e) => e.active && e.public && e.public_url)
    .sort((a, b) => compareKeys(SORT.ordered(a), SORT.ordered(b)));
  return types[0]?.public_url ?? `${FALLBACK_BOOKING_URL}/${ws.id}`;
}

/** one_pager: the first doc asset the caller can see. */
export function onePager(store: Store, ws: WorkspaceRec, canSee: RenderInput['canSee']): string | null {
  const docs = store.assets
    .inGroup(ws.id)
    .filter((a) => a.kind === 'doc' && a.url && canSee(a))
    .sort((a, b) => compareKeys(SORT.ordered(a), SORT.ordered(b)));
  return docs[0]?.url ?? null;
}

function knownValue(name: string, i: RenderInput): string | null {
  const { lead, owner, ws } = i;
  switch (name) {
    case 'first_name':
      return lead.first_name;
    case 'last_name':
      return lead.last_name;
    case 'full_name':
      return [lead.first_name, lead.last_name].filter((s) => s?.trim()).join(' ') || null;
    case 'company_name':
      return lead.company_name;
    case 'title':
      return lead.title;
    case 'email':
      return lead.email;
    case 'sender_name':
      return owner.name;
    case 'sender_first_name':
      return owner.name?.trim().split(/\s+/)[0] ?? null;
    case 'sender_email':
      return owner.email;
    case 'sender_company':
      return ws.name;
    case 'cal_link':
      return calLink(i.store, ws);
    case 'one_pager':
      return onePager(i.store, ws, i.canSee);
    case 'quarter':
      return quarterOf(i.now);
    default:
      return null;
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Fill a template for one lead. Overrides win over everything; AI variables resolve only
 * through overrides; an unknown token or an empty value stays literal and is reported
 * unresolved. A pure computation: nothing is written.
 */
export function renderTemplate(i: RenderInput): Rendered {
  const ai = new Set(i.template.ai_variables.map((v) => v.name));
  const resolved = new Set<string>();
  const unresolved = new Set<string>();
  const cache = new Map<string, string | null>();
  const valueFor = (name: string): string | null => {
    if (!cache.has(name)) {
      const raw = Object.hasOwn(i.overrides, name) ? i.overrides[name] : ai.has(name) ? null : knownValue(name, i);
      cache.set(name, raw !== undefined && raw !== null && raw.trim() !== '' ? raw : null);
    }
    return cache.get(name) ?? null;
  };
  const fill = (text: string, html: boolean) =>
    text.replace(TOKEN, (literal, name: string) => {
      const v = valueFor(name);
      if (v === null) {
        unresolved.add(name);
        return literal;
      }
      resolved.add(name);
      return html ? escapeHtml(v) : v;
    });
  // A subject is plain text even in an HTML email, so only the body escapes values.
  const subject = i.template.subject === null ? null : fill(i.template.subject, false);
  const body = fill(i.template.body, i.template.is_html);
  return { subject, body, resolved: [...resolved], unresolved: [...unresolved] };
}
