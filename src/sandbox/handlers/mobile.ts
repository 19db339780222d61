import { randomBytes } from 'node:crypto';
import { hashSecret } from '../auth.js';
import type { AreaHandlers } from '../context.js';
import { fail } from '../errors.js';
import { iso } from '../seed/time.js';

const SESSION_TTL_MS = 30 * 86_400_000;

/** Mobile sessions (src/api/table/mobile.ts): not inbox work, so no tools call them. */
export const mobileHandlers = {
  create_mobile_session(ctx) {
    const { store, caller } = ctx;
    const now = ctx.now();
    for (const s of store.mobileSessions.values()) {
      if (s.user_id === caller.owner.id && !s.revoked_at) s.revoked_at = iso(now);
    }
    const token = `rims_${randomBytes(30)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, '0')
      .slice(0, 40)}`;
    const id = `mss_${randomBytes(8).toString('hex')}`;
    const workspaces = [...store.workspaces.values()].filter((w) => caller.reaches(w)).map((w) => w.id);
    const rec = {
      id,
      token_hash: hashSecret(token),
      user_id: caller.owner.id,
      key_id: caller.key.id,
      device_name: ctx.body.device_name ?? null,
      workspaces,
      created_at: iso(now),
      expires_at: iso(now.getTime() + SESSION_TTL_MS),
      revoked_at: null,
    };
    store.mobileSessions.set(id, rec);
    const { token_hash: _h, key_id: _k, ...shown } = rec;
    return { status: 201, body: { object: 'mobile_session', ...shown, token, effects: { sessions_revoked_prior: true, provider_writes: [] } } };
  },
  revoke_mobile_session(ctx) {
    const { store, caller } = ctx;
    const target = caller.sessionId
      ? store.mobileSessions.get(caller.sessionId)
      : [...store.mobileSessions.values()].find((s) => s.user_id === caller.owner.id && !s.revoked_at);
    if (!target || target.revoked_at) fail('not_found', 'There is no active mobile session to revoke.');
    target.revoked_at = iso(ctx.now());
    const { token_hash: _h, key_id: _k, ...shown } = target;
    return { body: { object: 'mobile_session', ...shown, effects: { session_revoked: true, provider_writes: [] } } };
  },
} satisfies AreaHandlers;
