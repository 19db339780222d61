import { ApiError } from '../../client/errors.js';
import type { TypedApi } from '../declare/tool-context.js';

/** Lead ids remembered across every workspace a watch has seen; the oldest go first past this. */
export const KNOWN_LEADS_MAX = 10_000;

/**
 * Leads a watch knows exist: seen in its polls, or checked once with get_lead. A subscription
 * to a lead asks here, so subscribing again (or to a lead a poll has seen) costs no read.
 */
export class KnownLeads {
  private readonly seen = new Set<string>();
  /** get_lead requests sent to check a lead. */
  checks = 0;

  constructor(private readonly api: TypedApi) {}

  add(workspace: string, lead: string): void {
    const k = `${workspace}/${lead}`;
    this.seen.delete(k);
    this.seen.add(k);
    if (this.seen.size > KNOWN_LEADS_MAX) this.seen.delete(this.seen.values().next().value!);
  }

  /** Whether the lead exists: known already, or one get_lead read (a 404 says no; other failures are thrown). */
  async exists(workspace: string, lead: string): Promise<boolean> {
    if (this.seen.has(`${workspace}/${lead}`)) return true;
    this.checks++;
    try {
      await this.api.call('get_lead', { path: { workspace, lead_id: lead } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return false;
      throw err;
    }
    this.add(workspace, lead);
    return true;
  }
}
