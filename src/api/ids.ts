import { z } from 'zod';

/**
 * Id kinds of the v1 API (general rule 3). Ids are opaque: we only check the kind
 * prefix and that the rest is made of safe characters, so an id can never carry a path
 * separator, a query or an escape into a URL.
 */
export const ID_PREFIXES = {
  lead: 'lead_',
  reply: 'rep_',
  message: 'msg_',
  task: 'tsk_',
  meeting: 'mtg_',
  note: 'note_',
  template: 'tpl_',
  event_type: 'evt_',
  sequence: 'seq_',
  asset: 'ast_',
  campaign: 'cmp_',
  user: 'usr_',
  member: 'usr_',
  lead_tag: 'ltg_',
  campaign_tag: 'ctg_',
  template_folder: 'tfd_',
  step: 'stp_',
  attachment: 'att_',
  key: 'key_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque tail of an id: one or more alphanumeric runs joined by single underscores. */
const TOKEN = '[A-Za-z0-9]+';

/**
 * The owner's global user id is one part (`usr_x`); the workspace-scoped member id is
 * two parts (`usr_x_y`); lead tag ids are two parts. Authentication rule 8 says the two
 * user forms are not interchangeable, so they are told apart here.
 */
const PARTS: Partial<Record<IdKind, 1 | 2>> = { user: 1, member: 2, lead_tag: 2 };

const patterns = Object.fromEntries(
  (Object.keys(ID_PREFIXES) as IdKind[]).map((kind) => {
    const parts = PARTS[kind];
    const tail = parts === 1 ? TOKEN : parts === 2 ? `${TOKEN}_${TOKEN}` : `${TOKEN}(?:_${TOKEN})*`;
    return [kind, new RegExp(`^${ID_PREFIXES[kind]}${tail}$`)];
  }),
) as Record<IdKind, RegExp>;

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && value.length <= 128 && patterns[kind].test(value);
}

/** What a valid id of this kind looks like, for error messages written for a model. */
export function idShape(kind: IdKind): string {
  const parts = PARTS[kind];
  if (kind === 'member') return 'a workspace-scoped member id (two parts, e.g. usr_abc_def)';
  if (kind === 'user') return 'a global user id (one part, e.g. usr_abc)';
  if (parts === 2) return `an id like ${ID_PREFIXES[kind]}abc_def`;
  return `an id starting with ${ID_PREFIXES[kind]}`;
}

export function idSchema(kind: IdKind, where?: string) {
  return z
    .string()
    .max(128)
    .regex(patterns[kind], { message: `must be ${idShape(kind)}${where ? `; ${where}` : ''}` });
}

/** Workspace ids are slugs (general rule 3). */
export const WORKSPACE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62})$/;
export function isWorkspaceSlug(value: unknown): value is string {
  return typeof value === 'string' && WORKSPACE_SLUG.test(value);
}
export const workspaceSchema = z.string().refine(isWorkspaceSlug, { message: 'must be a workspace slug (lowercase letters, digits, hyphens)' });
