import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_FORMAT } from '../../../api/keys.js';

/**
 * Who may call the HTTP endpoint and with which Reply Inbox key: either every request
 * brings its own key (`bearer`: the server holds none), or the endpoint is protected by a
 * separate secret and the server acts with its configured key (`token`).
 */
export type HttpAuth = { kind: 'bearer' } | { kind: 'token'; token: string; apiKey: string };

/** The key a request acts with, and who owns its sessions (a hash: never the key itself). */
export type Credential = { ok: true; apiKey: string; owner: string } | { ok: false; message: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Read the Authorization header only: a key in a query string would end up in access logs. */
export function credentialOf(headers: IncomingHttpHeaders, auth: HttpAuth): Credential {
  const m = BEARER.exec(headers.authorization ?? '');
  if (auth.kind === 'token') {
    if (!m || !sameSecret(m[1]!, auth.token)) return { ok: false, message: "Send the server's access token as Authorization: Bearer <token>." };
    return { ok: true, apiKey: auth.apiKey, owner: 'token' };
  }
  if (!m) return { ok: false, message: 'Send your Reply Inbox API key as Authorization: Bearer rik_live_….' };
  const key = API_KEY_FORMAT.exec(m[1]!);
  if (!key) return { ok: false, message: 'The bearer is not a Reply Inbox API key: send Authorization: Bearer rik_live_<8-char handle>_<32-char secret>.' };
  if (key[1] === 'test')
    return { ok: false, message: 'Test-environment keys (rik_test_…) are refused by the API: send a live key as Authorization: Bearer rik_live_….' };
  return { ok: true, apiKey: m[1]!, owner: createHash('sha256').update(m[1]!).digest('hex') };
}

/** Compare in constant time, so the response time says nothing about how much of the token matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
