import { ValidationError } from '../../client/errors.js';
import { isId } from '../../api/ids.js';

interface MeLike {
  owner?: { id?: string };
  workspaces?: { id: string; member_id?: string }[];
}

/** How the service writes the workspace part of a member id (observed; docs/spec-gaps.md). */
const suffixOf = (workspace: string) => `_${workspace.replace(/[^a-z0-9]/g, '')}`;

/**
 * Tasks, notes and meetings take one-part user ids; list_members shows two-part member ids.
 * The spec says only that both name the same person. GET /v1/me gives the owner's pair in
 * each workspace: that maps the owner for sure, and, where the pair is the user id plus the
 * workspace's suffix, shows the rule the server then applies to other members of it.
 */
export class UserIds {
  private owner: string | null = null;
  private readonly ownerMember = new Map<string, string>();

  learn(me: MeLike): void {
    this.owner = me.owner?.id ?? null;
    this.ownerMember.clear();
    for (const w of me.workspaces ?? []) if (w.member_id) this.ownerMember.set(w.id, w.member_id);
  }

  /** The arguments with each member id given for a user id replaced by that user id, or a clear refusal. */
  map(tool: string, params: readonly string[], workspace: string | null, args: Record<string, unknown>): Record<string, unknown> {
    const out = { ...args };
    for (const p of params) {
      const v = out[p];
      if (typeof v === 'string' && !isId('user', v) && isId('member', v)) out[p] = this.toUser(tool, p, workspace, v);
    }
    return out;
  }

  private toUser(tool: string, param: string, workspace: string | null, member: string): string {
    const mine = workspace ? this.ownerMember.get(workspace) : undefined;
    if (this.owner && mine === member) return this.owner;
    const suffix = workspace ? suffixOf(workspace) : null;
    const ruleHolds = this.owner !== null && suffix !== null && mine === `${this.owner}${suffix}`;
    if (ruleHolds && member.endsWith(suffix) && isId('user', member.slice(0, -suffix.length))) return member.slice(0, -suffix.length);
    throw new ValidationError(
      'invalid_id',
      tool,
      `Argument '${param}': ${member} is a member id, and this server cannot map it to the one-part user id ${param} takes here. Pass the user id (usr_…): list_tasks (assignee_id), list_meetings (host_id) and get_me (owner.id) show them.`,
      param,
    );
  }
}
