import { createHash } from 'node:crypto';
import { ApiError } from '../../client/errors.js';
import type { Endpoint } from '../../api/endpoints.js';
import type { ToolOutput } from '../view/output.js';
import { RecordKeeper } from './records.js';

/**
 * What this key deleted lately (in any session or instance: the records are the key's), so
 * that a repeated delete says "already deleted" instead of the API's bare not_found (a
 * soft-deleted object reads as not found to every call). Deleting again changes nothing, as
 * the tool's idempotentHint says; the answer now says so too. Kept as long as the duplicate guard's window.
 */
export class Deleted extends RecordKeeper {
  /** Run a delete; when the object is gone because this key deleted it, answer with that. */
  async run(e: Endpoint, path: Record<string, unknown>, del: () => Promise<ToolOutput>): Promise<ToolOutput> {
    if (e.method !== 'DELETE') return del();
    const ids = JSON.stringify([e.name, Object.keys(e.pathIds).map((k) => path[k] ?? null)]);
    const name = `deleted:${createHash('sha256').update(ids).digest('hex').slice(0, 32)}`;
    try {
      const out = await del();
      await this.records.set(name, JSON.stringify({ at: this.now(), structured: out.structured }), this.windowMs).catch((err: unknown) => {
        this.log?.warn({ err }, 'could not record a delete');
      });
      return out;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'not_found') throw err;
      const v = await this.records.get(name).catch(() => null);
      if (v === null) throw err;
      const earlier = JSON.parse(v) as { at: number; structured: Record<string, unknown> };
      const id = String(earlier.structured.id ?? '');
      const ago = Math.max(0, Math.round((this.now() - earlier.at) / 1000));
      const text = `The ${e.resource} ${id} is already deleted: this key deleted it ${ago} s ago. Nothing changed.`;
      const effects = 'effects' in earlier.structured ? { effects: { provider_writes: [] } } : {};
      return { structured: { ...earlier.structured, ...effects, already_deleted: true }, text };
    }
  }
}
