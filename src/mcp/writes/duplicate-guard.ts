import { createHash, randomBytes } from 'node:crypto';
import { ENDPOINTS, type Endpoint } from '../../api/endpoints.js';
import { ApiError, CancelledError, LimiterUnavailableError, NetworkError, OutcomeUnknownError, ReplyInboxError, TimeoutError } from '../../client/errors.js';
import { checkHint } from '../../client/retry.js';
import { InvalidResponseError, ToolError, typed } from '../errors.js';
import { isGuardedCreate } from '../declare/shared-args.js';
import type { ToolOutput } from '../view/output.js';
import { RecordKeeper } from './records.js';

/** What a create that succeeded leaves for a repeat to answer with: its id and kind, never the record's fields. */
export interface Made {
  id: string;
  object: string;
  /** Whether the tool's answers carry the API's effects (a repeat then says it wrote nothing). */
  effects: boolean;
}

/** Where an identical call stands, as kept in the key's records. */
type Entry = { state: 'pending'; at: number; claim: string } | { state: 'done'; at: number; made: Made } | { state: 'unsettled'; at: number };

/** What the guard answers instead of running the create: the earlier object, made `secondsAgo`. */
export type Guarded = { out: ToolOutput } | { duplicateOf: Made; secondsAgo: number };

/** A call claimed longer ago than this (twice the default deadline) cannot still be running: its server stopped. */
const STALE_PENDING_MS = 100_000;

/** The reads that settle a create of unknown outcome (the endpoint table's settledBy). */
const SETTLING_READS = new Set(ENDPOINTS.filter(isGuardedCreate).flatMap((e) => (e.settledBy ? [e.settledBy] : [])));

/** A read that settles creates of unknown outcome (list_tasks, list_notes): RecentCreates.checked records it. */
export const isSettlingRead = (e: Endpoint): boolean => SETTLING_READS.has(e.name);

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

/** The same call, whatever the order of its keys; the workspace is the resolved one, named or not. */
function nameOf(tool: string, workspace: string | null, { workspace: _named, ...args }: Record<string, unknown>): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `create:${digest(JSON.stringify([tool, workspace, sorted(args)]))}`;
}

/** The set of creates a read settles: the read, the workspace and the lead it names. */
function checkName(read: string, workspace: string | null, leadId: unknown): string {
  return `check:${digest(JSON.stringify([read, workspace, typeof leadId === 'string' ? leadId : null]))}`;
}

/**
 * Whether a create that failed may still have been applied: anything but a definite refusal
 * (a 4xx) or a call never sent. A failure this server cannot read counts as applied.
 */
export function mayHaveApplied(err: unknown): boolean {
  if (err instanceof OutcomeUnknownError) return true;
  if (err instanceof InvalidResponseError) return err.write;
  if (err instanceof ApiError) return err.status < 400 || err.status === 408 || err.status >= 500;
  if (err instanceof CancelledError || err instanceof NetworkError || err instanceof TimeoutError) return err.sent === 'maybe';
  return !(err instanceof ReplyInboxError);
}

/**
 * Agents repeat calls, from one session or several. For each API key (one guard per key,
 * whatever the session or the server instance: its records are in Redis with --redis), a
 * create that succeeded is remembered for ten minutes, so that the same call again answers
 * with what it made instead of making it twice. A create that may have been applied without
 * saying so (outcome_unknown: cancelled or timed out after sending, a 2xx too large or
 * unreadable, a 3xx) holds back the identical call, refused unsent, until the read that
 * settles it (list_tasks or list_notes for that lead) has been made, or for ten minutes. An
 * identical call still in flight in this process is waited for; in another, it is refused.
 */
export class RecentCreates extends RecordKeeper {
  /** Calls of this process between their claim and their settlement: an identical call here waits for them. */
  private readonly local = new Map<string, Promise<void>>();

  /**
   * Run the create unless an identical one succeeded within the window, is unsettled or in
   * flight (`always`: run it anyway, and remember it as the newest); say which happened.
   */
  async run(
    e: Endpoint,
    workspace: string | null,
    args: Record<string, unknown>,
    create: () => Promise<ToolOutput>,
    opts: { always?: boolean } = {},
  ): Promise<Guarded> {
    const name = nameOf(e.name, workspace, args);
    const check = checkHint(e, { workspace: workspace ?? '?' }, args);
    if (opts.always) return { out: await this.attempt(e, { name, claim: null, check, workspace, args }, create) };
    for (;;) {
      const here = this.local.get(name);
      if (here) {
        await here;
        continue;
      }
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      this.local.set(name, mine);
      try {
        const claim = JSON.stringify({ state: 'pending', at: this.now(), claim: randomBytes(6).toString('hex') } satisfies Entry);
        const there = await this.records.claim(name, claim, this.windowMs).catch((err: unknown) => {
          throw new LimiterUnavailableError(e.name, `the duplicate guard's shared store (Redis) failed: ${(err as Error).message}`);
        });
        if (there === null) return { out: await this.attempt(e, { name, claim, check, workspace, args }, create) };
        const entry = JSON.parse(there) as Entry;
        if (entry.state === 'done') return { duplicateOf: entry.made, secondsAgo: this.ago(entry.at) };
        throw this.refusal(e.name, entry, check);
      } finally {
        if (this.local.get(name) === mine) this.local.delete(name);
        release();
      }
    }
  }

  /**
   * A read that settles creates of unknown outcome succeeded: identical creates that ended
   * unknown before it began may be sent again (the read showed whether they were made).
   */
  async checked(read: Endpoint, workspace: string | null, args: Record<string, unknown>, startedAt: number): Promise<void> {
    if (!isSettlingRead(read)) return;
    const set = checkName(read.name, workspace, args.lead_id);
    try {
      for (const name of await this.records.members(set)) {
        const v = await this.records.get(name);
        const entry = v === null ? null : (JSON.parse(v) as Entry);
        const settled = entry?.state === 'unsettled' && entry.at <= startedAt;
        const stale = entry?.state === 'pending' && entry.at <= startedAt - STALE_PENDING_MS;
        if (v !== null && (settled || stale)) await this.records.swap(name, v, null, this.windowMs);
        if (entry === null || entry.state === 'done' || settled || stale) await this.records.removeFrom(set, name);
      }
    } catch (err) {
      this.log?.warn({ err, read: read.name }, 'duplicate guard: could not record a settling read');
    }
  }

  /** Send the create and record how it ended: made, unsettled, or nothing (a refusal frees the claim). */
  private async attempt(
    e: Endpoint,
    c: { name: string; claim: string | null; check: string; workspace: string | null; args: Record<string, unknown> },
    create: () => Promise<ToolOutput>,
  ): Promise<ToolOutput> {
    let out: ToolOutput;
    try {
      out = await create();
    } catch (err) {
      if (!mayHaveApplied(err)) {
        if (c.claim) await this.settle(c.name, c.claim, null);
        throw err;
      }
      await this.settle(c.name, c.claim, JSON.stringify({ state: 'unsettled', at: this.now() } satisfies Entry));
      if (e.settledBy) await this.index(checkName(e.settledBy, c.workspace, c.args.lead_id), c.name);
      throw this.unknown(e, err, c.check);
    }
    const made: Made = { id: String(out.structured.id ?? ''), object: String(out.structured.object ?? e.resource), effects: 'effects' in out.structured };
    await this.settle(c.name, c.claim, JSON.stringify({ state: 'done', at: this.now(), made } satisfies Entry));
    return out;
  }

  /** Replace the claim (or, for a call that claimed nothing, whatever is there); a store that fails is logged, never the call's answer. */
  private async settle(name: string, claim: string | null, next: string | null): Promise<void> {
    try {
      if (claim !== null) await this.records.swap(name, claim, next, this.windowMs);
      else if (next !== null) await this.records.set(name, next, this.windowMs);
    } catch (err) {
      this.log?.warn({ err }, 'duplicate guard: could not record how a create ended');
    }
  }

  private async index(set: string, name: string): Promise<void> {
    try {
      await this.records.addTo(set, name, this.windowMs);
    } catch (err) {
      this.log?.warn({ err }, 'duplicate guard: could not record the read that settles a create');
    }
  }

  /** The create's own answer when it may have been applied: outcome_unknown, with the check and what it holds back. */
  private unknown(e: Endpoint, err: unknown, check: string): ReplyInboxError {
    if (err instanceof InvalidResponseError) return err;
    const cause = err instanceof OutcomeUnknownError ? (err.cause as ReplyInboxError) : typed(err, e.name);
    const held = `Until that check, or for ${this.minutes(this.windowMs)}, the identical ${e.name} call is refused unsent (duplicate_unsettled).`;
    return new OutcomeUnknownError(e.name, `${check} ${held}`, e.idempotent, cause);
  }

  /** The repeat of a call that is unsettled, or in flight where this process cannot wait for it. */
  private refusal(tool: string, entry: Exclude<Entry, { state: 'done' }>, check: string): ToolError {
    const ago = this.ago(entry.at);
    const left = this.minutes(Math.max(0, entry.at + this.windowMs - this.now()));
    const anyway = 'Pass allow_duplicate: true only to create another on purpose.';
    if (entry.state === 'unsettled') {
      return new ToolError(
        'duplicate_unsettled',
        tool,
        `Not sent: an identical ${tool} call of this key ended outcome_unknown ${ago} s ago (it may have been applied), and nothing has checked since; sending this one could store it twice.`,
        { status: null, next_step: `${check} After that read the same call is sent; without it, it is refused for ${left} more. ${anyway}` },
      );
    }
    return new ToolError(
      'duplicate_unsettled',
      tool,
      `Not sent: an identical ${tool} call of this key, sent ${ago} s ago from another session or server instance, has no answer yet (or its server stopped before it had one); sending this one could store it twice.`,
      {
        status: null,
        next_step: `Wait for that call to finish, then call ${tool} again: it answers with what that call made. If it stays refused, ${check.charAt(0).toLowerCase()}${check.slice(1)} ${anyway}`,
      },
    );
  }

  private ago(at: number): number {
    return Math.max(0, Math.round((this.now() - at) / 1000));
  }

  private minutes(ms: number): string {
    const m = Math.ceil(ms / 60_000);
    return m === 1 ? '1 minute' : `${m} minutes`;
  }
}

/**
 * The answer to a repeat, the same in both forms: nothing created (created false), the id the
 * earlier call made, how long ago, and how to create anyway. None of the earlier record's
 * fields: they would read as a new one. No API call was made, so nothing was written anywhere.
 */
export function duplicateAnswer(tool: string, earlier: Made, secondsAgo: number): ToolOutput {
  const { id, object: kind } = earlier;
  const ago = secondsAgo < 90 ? `${secondsAgo} s` : `${Math.round(secondsAgo / 60)} min`;
  const effects = earlier.effects ? { effects: { provider_writes: [] } } : {};
  const text = [
    `Nothing created (created=false): the same ${tool} call of this key succeeded ${ago} ago (seconds_ago=${secondsAgo}) and made ${kind} ${id} (id=${id}, duplicate_of=${id}). Pass allow_duplicate: true to create another on purpose.`,
    ...('effects' in effects ? [`effects: ${JSON.stringify(effects.effects)}`] : []),
  ].join('\n');
  return { structured: { object: kind, id, created: false, duplicate_of: id, seconds_ago: secondsAgo, ...effects }, text };
}
