import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { KeyRecords } from '../writes/records.js';

/**
 * What a 2026-07-28 confirmation carries between its two rounds (the `requestState` the client
 * echoes): which call the question was about, and a one-time mark. Signed, not secret.
 */
export interface ConfirmState {
  tool: string;
  /** sha256 of the call's arguments, canonical JSON: an answer holds for these arguments only. */
  args: string;
  /** Used once: a replayed answer is refused. */
  once: string;
}

/** How long a question's state stays good: the person answers within the tool call's time. */
export const CONFIRM_STATE_TTL_S = 300;

/**
 * The HMAC key of one API key's confirmations: derived from the key, so every instance serving
 * that key verifies what any of them signed (no shared secret to configure), and a state signed
 * for one key is refused under another.
 */
export function confirmKeyOf(apiKey: string): Buffer {
  return createHmac('sha256', apiKey).update('reply-inbox-mcp/confirm-state/v1').digest();
}

/** A key of its own for a server given none (a library user): its states verify in this process only. */
export const processConfirmKey = (): Buffer => randomBytes(32);

export function confirmCodec(key: Uint8Array): RequestStateCodec<ConfirmState> {
  // Bound to the method too: a state minted for tools/call is refused on any other request.
  return createRequestStateCodec<ConfirmState>({ key, ttlSeconds: CONFIRM_STATE_TTL_S, bind: (ctx) => ctx.mcpReq.method });
}

/** The arguments as one digest: keys sorted at every depth, so the same call digests alike. */
export function argsDigest(args: Record<string, unknown>): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(args)))
    .digest('base64url');
}

export const newOnce = (): string => randomUUID();

/**
 * One-time marks already answered, kept as long as their state could still verify, in the
 * key's write records: in Redis with --redis, so an answer replayed to another instance of
 * the key is refused there too.
 */
export class UsedMarks {
  constructor(private readonly records: KeyRecords) {}

  /** True the first time a mark is taken; false for a replay. */
  async take(once: string): Promise<boolean> {
    return (await this.records.claim(`confirm:${once}`, '1', CONFIRM_STATE_TTL_S * 1000)) === null;
  }
}

/** One key's confirmations: the codec every instance of the key shares, and the marks answered on any of them. */
export interface KeyConfirm {
  codec: RequestStateCodec<ConfirmState>;
  used: UsedMarks;
}

export function keyConfirm(key: Uint8Array, records: KeyRecords): KeyConfirm {
  return { codec: confirmCodec(key), used: new UsedMarks(records) };
}
