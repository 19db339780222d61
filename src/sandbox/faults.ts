import { Rng } from './rng.js';

export interface Faults {
  upstream_error: number;
  reset: number;
  latency_ms: number;
}
export const NO_FAULTS: Faults = { upstream_error: 0, reset: 0, latency_ms: 0 };

/** Parse `upstream_error=0.2,reset=0.05,latency_ms=30`. */
export function parseFaults(spec: string | undefined): Faults {
  const f = { ...NO_FAULTS };
  if (!spec || spec === 'none') return f;
  for (const part of spec.split(',')) {
    const [name, raw] = part.split('=').map((s) => s.trim());
    const value = Number(raw);
    if (!name || raw === undefined || raw === '' || !Number.isFinite(value) || value < 0) {
      throw new Error(`--faults: '${part}' is not name=number`);
    }
    if (name === 'upstream_error' || name === 'reset') {
      if (value > 1) throw new Error(`--faults: ${name} is a share between 0 and 1`);
      f[name] = value;
    } else if (name === 'latency_ms') f.latency_ms = value;
    else throw new Error(`--faults: unknown fault '${name}' (known: upstream_error, reset, latency_ms)`);
  }
  return f;
}

/** Decides, reproducibly for a given seed, which requests a fault hits. */
export class FaultPlan {
  private readonly rng: Rng;
  injected = { upstream_error: 0, reset_before: 0, reset_after: 0 };
  constructor(
    readonly faults: Faults,
    seed: number,
  ) {
    this.rng = Rng.derive(seed, 'faults');
  }
  get active(): boolean {
    return this.faults.reset > 0 || this.faults.upstream_error > 0 || this.faults.latency_ms > 0;
  }
  /**
   * A dropped connection: half before the request is processed, half after (the work is
   * done but the answer is lost), the case that makes a blind retry of a write dangerous.
   */
  reset(): 'before' | 'after' | null {
    if (this.faults.reset <= 0 || !this.rng.chance(this.faults.reset)) return null;
    return this.rng.chance(0.5) ? 'before' : 'after';
  }
  upstreamError(): boolean {
    return this.faults.upstream_error > 0 && this.rng.chance(this.faults.upstream_error);
  }
}
