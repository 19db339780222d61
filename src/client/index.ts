/** reply-inbox-mcp/client: the Reply Inbox API v1 client, usable without MCP. */
export {
  ReplyInboxClient,
  type BinaryResult,
  type CallControls,
  type CallOptions,
  type CallResult,
  type ClientOptions,
  type RequestOf,
  type RowCallOptions,
} from './client.js';
export {
  ApiError,
  BucketSpentError,
  CancelledError,
  LimiterUnavailableError,
  type ErrorKind,
  NetworkError,
  OutcomeUnknownError,
  ReplyInboxError,
  type Sent,
  TimeoutError,
  type TimeoutPhase,
  ValidationError,
  isReplyInboxError,
} from './errors.js';
export { type BodyLimits, DEFAULT_BODY_LIMITS, DEFAULT_TIMEOUTS, type Timeouts } from './http.js';
export { type BucketState, type LimiterEvent, type LimiterState, type RateFigures, SPEC_FIGURES } from './limiter/types.js';
export type { PageOptions, PageProgress } from './paginate.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export { RedisLimitStore, type RedisLimitStoreOptions } from './limiter/redis/limit-store.js';
export { DEFAULT_CACHE_TTLS, type CacheTtls } from './cache.js';
export { KeyProbe } from './key-probe.js';
export { type CallInput, prepare } from './validate.js';
