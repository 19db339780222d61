import type { Clock } from '../../clock.js';
import type { LimiterEvent, Settlement } from './types.js';

/** How many windows ahead a retry-after or an x-ratelimit-reset may point before it is clamped. */
export const WINDOWS_AHEAD = 2;

type Header = 'retry-after' | 'x-ratelimit-reset';

/**
 * Rate headers within reason: a retry-after or an x-ratelimit-reset further ahead than two
 * windows is clamped to two windows from now before any bucket is booked by it, so one
 * wrong or hostile header (retry-after: 1000000000) cannot lock a bucket for decades. Each
 * header is reported once (a 'header_clamped' event), not once per answer.
 */
export class HeaderBound {
  private readonly told = new Set<Header>();
  /** The last far reset seen and what it was clamped to: answers naming the same reset stay in one window. */
  private farReset: { raw: number; clamped: number } | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly emit: (e: LimiterEvent) => void,
  ) {}

  /** The settlement with its retry-after and reset within the bound (the same object when both already are). */
  clamp(s: Settlement): Settlement {
    if (s.kind !== 'response') return s;
    const now = this.clock.now();
    const boundMs = WINDOWS_AHEAD * this.windowMs;
    const { retryAfter, resetMs } = s.info;
    const farRetry = retryAfter !== undefined && retryAfter * 1000 > boundMs;
    const farReset = resetMs !== undefined && resetMs > now + boundMs;
    if (!farRetry && !farReset) return s;
    const info = { ...s.info };
    if (farRetry) {
      info.retryAfter = Math.ceil(boundMs / 1000);
      this.tell('retry-after', `${retryAfter} s`, boundMs);
    }
    if (farReset) {
      info.resetMs = this.resetWithin(resetMs, now + boundMs, now);
      this.tell('x-ratelimit-reset', new Date(resetMs).toISOString(), boundMs);
    }
    return { ...s, info };
  }

  /** A far reset is clamped once; later answers naming it share that clamped end until it passes. */
  private resetWithin(raw: number, bound: number, now: number): number {
    if (this.farReset?.raw !== raw || this.farReset.clamped <= now) this.farReset = { raw, clamped: bound };
    return this.farReset.clamped;
  }

  private tell(header: Header, value: string, boundMs: number): void {
    if (this.told.has(header)) return;
    this.told.add(header);
    this.emit({ type: 'header_clamped', header, value, boundMs });
  }
}
