import type { CacheHint } from '@modelcontextprotocol/server';

type Cached = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover';

/** An inbox read (the resource list names the newest leads; a read is a lead or a thread): short-lived, this client's. */
export const INBOX_TTL_MS = 10_000;

/**
 * How long a 2026-07-28 client may keep each list or read (ttlMs, cacheScope). What the key
 * may do (tools, prompts, templates, the server's own description) holds as long as its scopes,
 * which the server re-reads every `scopesMs`; inbox reads change as replies arrive. Every answer
 * depends on the caller's key: private, never for a shared cache.
 */
export function cacheHints(scopesMs: number): Record<Cached, CacheHint> {
  const scoped: CacheHint = { ttlMs: scopesMs, cacheScope: 'private' };
  const inbox: CacheHint = { ttlMs: INBOX_TTL_MS, cacheScope: 'private' };
  return {
    'tools/list': scoped,
    'prompts/list': scoped,
    'resources/templates/list': scoped,
    'server/discover': scoped,
    'resources/list': inbox,
    'resources/read': inbox,
  };
}
