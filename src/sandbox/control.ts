import type { Store } from './store/store.js';

/**
 * Run-time changes no v1 endpoint can make, for tests and demos of what the spec says
 * happens on its own (a key owner demoted, a new inbound reply). In-process only: they
 * are reachable through startSandbox's result, never over HTTP.
 */
export function setUserRole(store: Store, userId: string, role: 'admin' | 'user'): void {
  const u = store.users.get(userId);
  if (!u) throw new Error(`no user ${userId}`);
  u.role = role;
}
