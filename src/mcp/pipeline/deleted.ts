import { ApiError } from '../../client/errors.js';
import type { Endpoint } from '../../api/endpoints.js';
import type { ToolOutput } from '../view/output.js';

/**
 * What this server deleted, so that a repeated delete says "already deleted" instead of the
 * API's bare not_found (a soft-deleted object reads as not found to every call). Deleting
 * again changes nothing, as the tool's idempotentHint says; the answer now says so too.
 */
export class Deleted {
  private readonly done = new Map<string, { at: number; out: ToolOutput }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Run a delete; when the object is gone because this server deleted it, answer with that. */
  async run(e: Endpoint, path: Record<string, unknown>, del: () => Promise<ToolOutput>): Promise<ToolOutput> {
    if (e.method !== 'DELETE') return del();
    const key = JSON.stringify([e.name, Object.keys(e.pathIds).map((k) => path[k] ?? null)]);
    try {
      const out = await del();
      this.done.set(key, { at: this.now(), out });
      return out;
    } catch (err) {
      const earlier = this.done.get(key);
      if (!earlier || !(err instanceof ApiError) || err.code !== 'not_found') throw err;
      const id = String(earlier.out.structured.id ?? '');
      const ago = Math.max(0, Math.round((this.now() - earlier.at) / 1000));
      const text = `The ${e.resource} ${id} is already deleted: this server deleted it ${ago} s ago. Nothing changed.`;
      const effects = 'effects' in earlier.out.structured ? { effects: { provider_writes: [] } } : {};
      return { structured: { ...earlier.out.structured, ...effects, already_deleted: true }, text };
    }
  }
}
