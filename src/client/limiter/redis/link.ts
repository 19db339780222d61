import type Bottleneck from 'bottleneck';

/**
 * What the limiters kept in Redis use of the store that holds the connection
 * (RedisLimitStore): the connection and its timings, the names, the turn of a window, the
 * requests counted in a window before its refill, and word of a lost key or a store that went down.
 */
export interface RedisLink {
  readonly connection: Bottleneck.IORedisConnection;
  readonly jobExpirationMs: number;
  readonly heartbeatMs: number;
  readonly idleMs: number;
  limiterId(tag: string, part: string): string;
  claimTurn(tag: string, windowId: string): Promise<boolean>;
  countLanded(tag: string, bucket: string, windowEnd: number): void;
  landedAfter(tag: string, ended: number): Promise<Record<string, number>>;
  onLost(limiterId: string, listener: () => void): () => void;
  onDown(listener: (reason: string) => void): () => void;
  unavailable(): string | null;
}
