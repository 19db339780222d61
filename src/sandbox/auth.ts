import { createHash } from 'node:crypto';
import { SCOPES, type Scope } from '../api/enums.js';
import { API_KEY_FORMAT } from '../api/keys.js';
import { fail } from './errors.js';
import type { Store } from './store/store.js';
import type { ApiKeyRec, UserRec, WorkspaceRec } from './store/types.js';

/** Mobile session tokens carry a fixed prefix of their own (our choice: docs/spec-gaps.md). */
export const SESSION_FORMAT = /^rims_([A-Za-z0-9]{40})$/;

export const hashSecret = (s: string) => createHash('sha256').update(s).digest('hex');

/** What the owner's current role permits. The `user` role does not permit insights:read. */
export function rolePermits(role: UserRec['role']): ReadonlySet<Scope> {
  return new Set(role === 'admin' ? SCOPES : SCOPES.filter((s) => s !== 'insights:read'));
}

export interface Caller {
  key: ApiKeyRec;
  owner: UserRec;
  /** Usable scopes: granted ∩ what the role permits. */
  scopes: ReadonlySet<Scope>;
  withheld: Scope[];
  /** Set when the caller used a mobile session token rather than the key itself. */
  sessionId: string | null;
  reaches(ws: WorkspaceRec): boolean;
}

/** Authentication rule 5, in order. Returns the caller or throws the spec's code. */
export function authenticate(store: Store, header: string | undefined, now: Date): Caller {
  if (!header) fail('missing_authorization', 'Send the header Authorization: Bearer <API key>.');
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) fail('malformed_key', 'The Authorization header must be "Bearer <API key>".');
  const token = m[1] as string;
  let key: ApiKeyRec | undefined;
  let sessionId: string | null = null;
  let sessionWorkspaces: string[] | null = null;
  if (SESSION_FORMAT.test(token)) {
    const session = [...store.mobileSessions.values()].find((s) => s.token_hash === hashSecret(token));
    if (!session || session.revoked_at) fail('invalid_key', 'This session token is not valid (revoked or unknown).');
    if (Date.parse(session.expires_at) <= now.getTime()) fail('key_expired', 'This session token has expired.');
    key = [...store.keysByHash.values()].find((k) => k.id === session.key_id);
    sessionId = session.id;
    sessionWorkspaces = session.workspaces;
  } else {
    const f = API_KEY_FORMAT.exec(token);
    if (!f) fail('malformed_key', 'The API key is not of the form rik_live_<handle>_<secret>.');
    if (f[1] === 'test') fail('test_keys_unsupported', 'Test-environment keys are reserved and not accepted.');
    key = store.keysByHash.get(hashSecret(token));
  }
  if (!key) fail('invalid_key', 'This API key is not known.');
  if (key.revoked) fail('key_revoked', 'This API key has been revoked. Create a new one.');
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) fail('key_expired', 'This API key has expired. Create a new one.');
  const owner = store.users.get(key.owner_id);
  if (!owner?.active) fail('owner_deactivated', "This key's owner has been deactivated.");
  const permitted = rolePermits(owner.role);
  const scopes = new Set(key.scopes.filter((s) => permitted.has(s)));
  const withheld = key.scopes.filter((s) => !permitted.has(s));
  const k = key;
  return {
    key: k,
    owner,
    scopes,
    withheld,
    sessionId,
    reaches(ws) {
      const inKey = k.all_workspaces ? true : k.workspaces.includes(ws.id);
      if (!inKey) return false;
      // An inactive workspace is reachable only by an all-workspaces admin key.
      if (!ws.active && !(k.all_workspaces && owner.role === 'admin')) return false;
      return sessionWorkspaces ? sessionWorkspaces.includes(ws.id) : true;
    },
  };
}

export function requireScope(caller: Caller, scope: Scope | null): void {
  if (scope && !caller.scopes.has(scope)) {
    fail('insufficient_scope', `This key cannot do this: it needs the scope ${scope}.`, { required_scope: scope });
  }
}

/** Resolve the path workspace: outside the key's reach is 403, unknown within reach is 404. */
export function resolveWorkspace(store: Store, caller: Caller, slug: string): WorkspaceRec {
  const ws = store.workspaces.get(slug);
  if (!ws) {
    if (caller.key.all_workspaces) fail('not_found', `No workspace '${slug}'.`, { param: 'workspace' });
    fail('workspace_forbidden', `Workspace '${slug}' is outside this key's reach.`, { param: 'workspace' });
  }
  if (!caller.reaches(ws)) fail('workspace_forbidden', `Workspace '${slug}' is outside this key's reach.`, { param: 'workspace' });
  return ws;
}
