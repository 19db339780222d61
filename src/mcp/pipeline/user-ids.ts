import { ValidationError } from '../../client/errors.js';
import { isId } from '../../api/ids.js';
import { isFields } from '../declare/own-call.js';

interface MeLike {
  owner?: { id?: string; timezone?: string | null };
  workspaces?: { id: string; member_id?: string }[];
}

/** How the service writes the workspace part of a member id (observed; docs/spec-gaps.md). */
const suffixOf = (workspace: string) => `_${workspace.replace(/[^a-z0-9]/g, '')}`;

/**
 * Tasks, notes and meetings take one-part user ids; lead assignees and insights take two-part
 * member ids. The spec says only that both name the same person. GET /v1/me gives the owner's
 * pair in each workspace: that maps the owner for sure, and, where the pair is the user id plus
 * the workspace's suffix, shows the rule the server then applies to other members of it, both ways.
 */
export class UserIds {
  private owner: string | null = null;
  private readonly ownerMember = new Map<string, string>();
  /** The owner's timezone as GET /v1/me gives it (optional in the spec): a refused day states today in it. */
  ownerTimezone: string | null = null;

  learn(me: MeLike): void {
    this.owner = me.owner?.id ?? null;
    this.ownerTimezone = typeof me.owner?.timezone === 'string' ? me.owner.timezone : null;
    this.ownerMember.clear();
    for (const w of me.workspaces ?? []) if (w.member_id) this.ownerMember.set(w.id, w.member_id);
  }

  /** The workspace's suffix when the owner's own pair there follows the rule; null when it is not confirmed. */
  private confirmed(workspace: string): string | null {
    const suffix = suffixOf(workspace);
    return this.owner !== null && this.ownerMember.get(workspace) === `${this.owner}${suffix}` ? suffix : null;
  }

  /** The one-part user id of a member id of this workspace, or null when this server cannot tell it. */
  userOf(workspace: string, member: string): string | null {
    if (this.owner && this.ownerMember.get(workspace) === member) return this.owner;
    const suffix = this.confirmed(workspace);
    if (!suffix || !member.endsWith(suffix)) return null;
    const user = member.slice(0, -suffix.length);
    return isId('user', user) ? user : null;
  }

  /** The member id in this workspace of a one-part user id, or null when this server cannot tell it. */
  memberOf(workspace: string, user: string): string | null {
    if (this.owner === user) return this.ownerMember.get(workspace) ?? null;
    const suffix = this.confirmed(workspace);
    return suffix && isId('member', `${user}${suffix}`) ? `${user}${suffix}` : null;
  }

  /**
   * The arguments with each member id given for a user id replaced by that user id, or a clear
   * refusal; each replacement is said in notices, once, as the other way round is (take-args.ts).
   */
  map(tool: string, params: readonly string[], workspace: string | null, args: Record<string, unknown>, notices: string[] = []): Record<string, unknown> {
    const out = { ...args };
    for (const p of params) {
      const v = out[p];
      if (typeof v !== 'string' || isId('user', v) || !isId('member', v)) continue;
      out[p] = this.toUser(tool, p, workspace, v);
      const notice = `${p} ${v} is a member id: taken as its user id, ${out[p]}.`;
      if (!notices.includes(notice)) notices.push(notice);
    }
    return out;
  }

  private toUser(tool: string, param: string, workspace: string | null, member: string): string {
    const user = workspace ? this.userOf(workspace, member) : null;
    if (user) return user;
    const shown = workspace && this.confirmed(workspace) ? "list_members (each member's user_id), " : '';
    throw new ValidationError(
      'invalid_id',
      tool,
      `Argument '${param}': ${member} is a member id, and this server cannot map it to the one-part user id ${param} takes here. Pass the user id (usr_…): ${shown}list_tasks (assignee_id), list_meetings (host_id) and get_me (owner.id) show them.`,
      param,
    );
  }

  /** A user id where a member id of this workspace is taken, as that member id; a clear refusal when it cannot be told. */
  toMember(tool: string, param: string, workspace: string, user: string): string {
    const member = this.memberOf(workspace, user);
    if (member) return member;
    throw new ValidationError(
      'invalid_id',
      tool,
      `Argument '${param}': ${user} is a user id (one part), and ${tool} takes a member id (two parts) of workspace ${workspace}, which this server cannot tell for it. list_members shows each member's id.`,
      param,
    );
  }

  /** Each member record of a list with its user id beside its member id, where this server can tell it. */
  withUserIds(workspace: string, data: unknown): unknown {
    if (!Array.isArray(data)) return data;
    return data.map((m) => {
      if (!isFields(m) || typeof m.id !== 'string') return m;
      const { object, id: _, ...rest } = m;
      const id = m.id;
      const user = this.userOf(workspace, id);
      return user ? { ...(object !== undefined ? { object } : {}), id, user_id: user, ...rest } : m;
    });
  }
}
