import { isIPv6 } from 'node:net';

/**
 * Failed authentications per client address in a fixed one-minute window: past the limit an
 * address is answered 429 with Retry-After before its credentials are even looked at, so
 * guessing keys or the token costs the guesser time and the API nothing. Attempts still being
 * checked count against the limit too (`begin`), so a burst sent at once cannot pass it. IPv6
 * addresses are grouped by their /64 (one host holds a whole /64), and the groups remembered
 * are capped, oldest forgotten first, so a crowd of addresses cannot grow it.
 */
export class AuthFailures {
  private readonly byGroup = new Map<string, { count: number; since: number; pending: number }>();

  constructor(
    /** Failures allowed per window; 0 turns the limit off. */
    readonly perWindow: number,
    private readonly windowMs = 60_000,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until this address may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    if (this.perWindow === 0) return 0;
    const e = this.current(groupOf(address));
    if (!e || e.count + e.pending < this.perWindow) return 0;
    return Math.max(1, Math.ceil((e.since + this.windowMs - this.now()) / 1000));
  }

  /**
   * An attempt that the API will judge starts: it counts as a failure until `end` says how it
   * went. False (and nothing counted) when the address is at its limit already.
   */
  begin(address: string): boolean {
    if (this.perWindow === 0) return true;
    if (this.retryAfter(address) > 0) return false;
    this.entry(groupOf(address)).pending++;
    return true;
  }

  /** The attempt `begin` counted ended: a failure stays counted, a success is forgotten. */
  end(address: string, ok: boolean): void {
    if (this.perWindow === 0) return;
    const group = groupOf(address);
    const e = this.byGroup.get(group);
    if (e && e.pending > 0) e.pending--;
    if (!ok) this.failed(address);
  }

  failed(address: string): void {
    if (this.perWindow === 0) return;
    this.entry(groupOf(address)).count++;
  }

  get size(): number {
    return this.byGroup.size;
  }

  private current(group: string) {
    const e = this.byGroup.get(group);
    if (!e) return undefined;
    if (this.now() - e.since >= this.windowMs) {
      e.count = 0;
      e.since = this.now();
      if (e.pending === 0) {
        this.byGroup.delete(group);
        return undefined;
      }
    }
    return e;
  }

  private entry(group: string) {
    const e = this.current(group);
    if (e) return e;
    if (this.byGroup.size >= this.maxAddresses) this.byGroup.delete(this.byGroup.keys().next().value!);
    const fresh = { count: 0, since: this.now(), pending: 0 };
    this.byGroup.set(group, fresh);
    return fresh;
  }
}

/** An IPv6 address stands for its /64 (an IPv4-mapped one for its IPv4 address); IPv4 for itself. */
export function groupOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const full = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${full
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
