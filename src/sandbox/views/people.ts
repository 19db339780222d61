import type { Store } from '../store/store.js';
import type { MembershipRec } from '../store/types.js';

/** member resource: the person behind a membership, as the workspace sees them. */
export function memberView(store: Store, m: MembershipRec, extra: Record<string, unknown> = {}) {
  const u = store.users.get(m.user_id);
  return {
    object: 'member' as const,
    id: m.member_id,
    name: u?.name ?? null,
    email: u?.email ?? '',
    avatar_url: u?.avatar_url ?? null,
    role: u?.role === 'admin' ? 'admin' : 'user',
    timezone: u?.timezone ?? null,
    active: u?.active ?? false,
    assignable: m.assignable && (u?.active ?? false),
    created_at: m.created_at,
    ...extra,
  };
}
