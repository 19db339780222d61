import { RedisBucketStore, type RedisBucketStoreOptions } from './redis-bucket-store.js';
import { Limiter } from '../limiter.js';
import type { SharedBucket } from './shared-bucket.js';

export type SharedLimiterOptions = RedisBucketStoreOptions;

/** The key's buckets and concurrency cap shared by every instance through Redis: the one Limiter over the Redis store. */
export class SharedLimiter extends Limiter<SharedBucket> {
  constructor(o: SharedLimiterOptions) {
    super(o, (ctx) => new RedisBucketStore(o, ctx));
  }
}
