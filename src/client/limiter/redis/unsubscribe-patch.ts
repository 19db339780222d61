import type Bottleneck from 'bottleneck';

/** What this patch relies on in bottleneck: a test fails when the version or the patched code changes. */
export const UNSUBSCRIBE_PATCH = {
  version: '2.19.5',
  targets: [{ module: 'bottleneck/lib/IORedisConnection.js', member: '__removeLimiter__', fingerprint: 'ed17b744872c7b74' }],
} as const;

type Unsubscribe = (...channels: string[]) => Promise<unknown>;

/**
 * bottleneck 2.19.5 leaves a limiter's channels with `subscriber.unsubscribe` inside a forEach
 * whose promises nobody awaits: closing a key's limiters while Redis is down rejects each of
 * them unhandled, which ends a Node process. The subscription dies with the connection anyway,
 * so on our connection a failed unsubscribe is dropped instead.
 */
export function quietUnsubscribe(connection: Bottleneck.IORedisConnection): void {
  const subscriber = (connection as unknown as { subscriber?: { unsubscribe: Unsubscribe } }).subscriber;
  if (!subscriber) return;
  const original = subscriber.unsubscribe.bind(subscriber);
  subscriber.unsubscribe = (...channels: string[]) => original(...channels).catch(() => undefined);
}
