/**
 * Failed authentications per client address in a fixed one-minute window: past the limit an
 * address is answered 429 with Retry-After before its credentials are even looked at, so
 * guessing keys or the token costs the guesser time and the API nothing. The addresses
 * remembered are capped, oldest forgotten first, so a crowd of addresses cannot grow it.
 */
export class AuthFailures {
  private readonly byAddress = new Map<string, { count: number; since: number }>();

  constructor(
    /** Failures allowed per window; 0 turns the limit off. */
    readonly perWindow: number,
    private readonly windowMs = 60_000,
    private readonly maxAddresses = 10_000,
  ) {}

  /** Seconds until this address may try again, or 0 when it may now. */
  retryAfter(address: string, now = Date.now()): number {
    if (this.perWindow === 0) return 0;
    const e = this.byAddress.get(address);
    if (!e || now - e.since >= this.windowMs) return 0;
    return e.count >= this.perWindow ? Math.ceil((e.since + this.windowMs - now) / 1000) : 0;
  }

  failed(address: string, now = Date.now()): void {
    if (this.perWindow === 0) return;
    const e = this.byAddress.get(address);
    if (e && now - e.since < this.windowMs) {
      e.count++;
      return;
    }
    this.byAddress.delete(address);
    if (this.byAddress.size >= this.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value!);
    this.byAddress.set(address, { count: 1, since: now });
  }

  get size(): number {
    return this.byAddress.size;
  }
}
