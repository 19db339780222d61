import { OutcomeUnknownError } from '../../client/errors.js';
import { ToolError } from '../errors.js';
import { DUPLICATE_WINDOW_MS } from '../tool/shared-args.js';
import type { ToolOutput } from '../view/output.js';

interface Earlier {
  at: number;
  out: ToolOutput;
}

/** The same call, whatever the order of its keys; the workspace is the resolved one, named or not. */
function keyOf(tool: string, workspace: string | null, { workspace: _named, ...args }: Record<string, unknown>): string {
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
  return JSON.stringify([tool, workspace, sorted(args)]);
}

/**
 * Agents repeat calls. A create that succeeded is remembered for ten minutes, in this server
 * only, so that the same call again answers with what it made instead of making it twice.
 * An identical call still in flight is waited for; when it ends with its outcome unknown, the
 * waiting twin is refused unsent (sending it could store the object twice). A call whose
 * outcome is unknown is not remembered afterwards: that case keeps its own answer (check the
 * list before trying again).
 */
export class RecentCreates {
  private readonly done = new Map<string, Earlier>();
  private readonly inFlight = new Map<string, Promise<Earlier | null>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly windowMs = DUPLICATE_WINDOW_MS,
  ) {}

  /**
   * Run the create unless an identical one succeeded within the window (`always`: run it
   * anyway, and remember it as the newest); say which happened.
   */
  async run(
    tool: string,
    workspace: string | null,
    args: Record<string, unknown>,
    create: () => Promise<ToolOutput>,
    opts: { always?: boolean } = {},
  ): Promise<{ out: ToolOutput; earlier?: { secondsAgo: number } }> {
    const key = keyOf(tool, workspace, args);
    const pending = opts.always ? undefined : this.inFlight.get(key);
    // Waiting only when a twin is in flight: the check and the claim below stay in one turn.
    const earlier = opts.always ? undefined : (this.recent(key) ?? (pending ? await settled(tool, pending, this.now) : undefined) ?? undefined);
    if (earlier) return { out: earlier.out, earlier: { secondsAgo: Math.max(0, Math.round((this.now() - earlier.at) / 1000)) } };
    const made = create().then((out) => ({ at: this.now(), out }));
    this.inFlight.set(key, made);
    try {
      const e = await made;
      this.done.set(key, e);
      return { out: e.out };
    } finally {
      if (this.inFlight.get(key) === made) this.inFlight.delete(key);
    }
  }

  private recent(key: string): Earlier | undefined {
    const t = this.now();
    for (const [k, e] of this.done) if (t - e.at >= this.windowMs) this.done.delete(k);
    return this.done.get(key);
  }
}

/** What an identical call in flight came to: its output, null when it failed, and a refusal when its outcome is unknown. */
async function settled(tool: string, pending: Promise<Earlier | null>, now: () => number): Promise<Earlier | null> {
  const waited = now();
  try {
    return await pending;
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) return null;
    const ago = Math.max(0, Math.round((now() - waited) / 1000));
    throw new ToolError(
      'duplicate_unsettled',
      tool,
      `Not sent: an identical ${tool} call in flight in this server ended outcome_unknown (it may have been applied); sending this one too could make it twice. The wait lasted ${ago} s.`,
      { status: null, next_step: `${err.check} Pass allow_duplicate: true to create another on purpose.` },
    );
  }
}

/**
 * The answer to a repeat, the same in both forms: nothing created (created false), the id the
 * earlier call made, how long ago, and how to create anyway. None of the earlier record's
 * fields: they would read as a new one. No API call was made, so nothing was written anywhere.
 */
export function duplicateAnswer(tool: string, earlier: ToolOutput, secondsAgo: number): ToolOutput {
  const id = String(earlier.structured.id ?? '');
  const kind = String(earlier.structured.object ?? 'record');
  const ago = secondsAgo < 90 ? `${secondsAgo} s` : `${Math.round(secondsAgo / 60)} min`;
  const effects = 'effects' in earlier.structured ? { effects: { provider_writes: [] } } : {};
  const text = [
    `Nothing created (created=false): the same ${tool} call succeeded ${ago} ago (seconds_ago=${secondsAgo}) in this server and made ${kind} ${id} (id=${id}, duplicate_of=${id}). Pass allow_duplicate: true to create another on purpose.`,
    ...('effects' in effects ? [`effects: ${JSON.stringify(effects.effects)}`] : []),
  ].join('\n');
  return { structured: { object: kind, id, created: false, duplicate_of: id, seconds_ago: secondsAgo, ...effects }, text };
}
