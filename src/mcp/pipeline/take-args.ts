import { z } from 'zod';
import { isDay } from '../../api/dates.js';
import { VALUE_ALIASES } from '../../api/enums.js';
import { isId } from '../../api/ids.js';
import type { ToolDef } from '../declare/define.js';
import type { UserIds } from './user-ids.js';

/**
 * The parse step's first part: arguments in the forms agents send, read as the tool's schema
 * takes them, so that a form whose meaning is plain costs no retry. The published schemas stay
 * as they are (every turn pays for their bytes); what changed the call is told in the answer.
 */
export interface Taken {
  args: unknown;
  /** One sentence for each value read otherwise than sent, for the answer's `notices`. */
  notices: string[];
}

/** A schema under its optional, nullable and default wrappers. */
function bare(s: z.ZodType): z.ZodType {
  let t = s;
  while (t instanceof z.ZodOptional || t instanceof z.ZodNullable || t instanceof z.ZodDefault) t = t.unwrap() as z.ZodType;
  return t;
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The people ids of the call's workspace, to read a user id where a member id is taken. */
export interface People {
  ids: UserIds;
  workspace: string | null;
}

/** A slot that takes a two-part member id and refuses a one-part user id (assignee filters, member_ids, insights). */
const takesMember = (s: z.ZodType) => s.safeParse('usr_a_b').success && !s.safeParse('usr_a').success;

/** A user id where a member id is taken, as that member id of the workspace (user-ids.ts), said in a notice. */
function asMember(tool: ToolDef, name: string, value: unknown, people: People | undefined, notices: string[]): unknown {
  const inner = bare(tool.input.shape[name] as z.ZodType);
  const slot = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : inner;
  const one = (v: unknown) => {
    if (!people?.workspace || !isId('user', v) || !takesMember(slot)) return v;
    const member = people.ids.toMember(tool.name, name, people.workspace, v);
    notices.push(`${name} ${v} is a user id: taken as its member id in ${people.workspace}, ${member}.`);
    return member;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** One argument as the schema takes it, with the notice it needs; undefined drops it. */
function takeOne(tool: ToolDef, name: string, value: unknown, notices: string[]): unknown {
  const schema = tool.input.shape[name] as z.ZodType | undefined;
  if (!schema) return value;
  const kind = tool.endpoint.query[name]?.kind;
  // The end of a list shows next_cursor null: sent back, it means the first page.
  if (kind === 'cursor' && value === null) return undefined;
  const inner = bare(schema);
  // The service clamps a page size above its most (Pagination); the answer says it did.
  if (kind === 'limit' && inner instanceof z.ZodNumber && typeof value === 'number' && Number.isInteger(value)) {
    const max = inner.maxValue;
    if (max !== null && Number.isFinite(max) && value > max) {
      notices.push(`limit ${value} is more than one page holds: ${max} was used.`);
      return max;
    }
  }
  if (kind === 'dateTime' && typeof value === 'string' && isDay(value)) {
    notices.push(`${name} ${value} is a day: taken as its start in UTC, ${value}T00:00:00Z.`);
    return `${value}T00:00:00Z`;
  }
  // A list of one, sent as the one value.
  const listed = inner instanceof z.ZodArray && isScalar(value) ? [value] : value;
  return inner instanceof z.ZodArray && Array.isArray(listed)
    ? listed.map((v) => unalias(inner.element as z.ZodType, name, v, notices))
    : unalias(inner, name, listed, notices);
}

/** An input alias the slot does not take (dnc in the status filter), as the value it stands for, said in a notice. */
function unalias(slot: z.ZodType, name: string, value: unknown, notices: string[]): unknown {
  if (typeof value !== 'string' || !(value in VALUE_ALIASES) || slot.safeParse(value).success) return value;
  const meant = VALUE_ALIASES[value]!;
  if (!slot.safeParse(meant).success) return value;
  notices.push(`${name} ${value} is the API's input alias of ${meant}: read as ${meant}.`);
  return meant;
}

/** The arguments with each value in the form the schema takes, where its meaning is plain; a user id that cannot be read as a member id throws. */
export function takeArgs(tool: ToolDef, raw: unknown, people?: People): Taken {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { args: raw, notices: [] };
  const notices: string[] = [];
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const taken = takeOne(tool, name, value, notices);
    const v = taken !== undefined && name in tool.input.shape ? asMember(tool, name, taken, people, notices) : taken;
    // Defined, not assigned: a "__proto__" key stays a key, for the schema to refuse.
    if (v !== undefined) Object.defineProperty(args, name, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return { args, notices };
}
