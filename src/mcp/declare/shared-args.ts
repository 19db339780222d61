import { z } from 'zod';
import type { Endpoint } from '../../api/endpoints.js';
import { isId } from '../../api/ids.js';

// Arguments the server adds to a tool's own, with the rules for which tools take them. They
// are part of the tool contract (defineTool publishes them); the call pipeline acts on them.

/** The most items one multi-page read returns: 5 pages of 200, a few seconds of the read budget. */
export const MAX_ITEMS_BOUND = 1_000;

/** The arguments every pageable list tool takes, besides the endpoint's own. */
export const MULTI_PAGE_ARGS = {
  max_items: z.number().int().min(1).max(MAX_ITEMS_BOUND).optional().describe('Max items, over pages.'),
  all: z.boolean().optional().describe('true: read to the end.'),
} as const;

/** Pageable list reads: a list endpoint with a cursor. */
export function isMultiPage(e: Endpoint): boolean {
  return e.returns === 'list' && !e.write && 'cursor' in e.query;
}

/** How many items the arguments ask for, or undefined for the ordinary one-page call. */
export function itemBound(args: { max_items?: number; all?: boolean }): number | undefined {
  if (args.max_items !== undefined) return args.max_items;
  return args.all === true ? MAX_ITEMS_BOUND : undefined;
}

/** How long a create that succeeded keeps an identical call from creating again. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** The argument every guarded create takes, besides the endpoint's own. */
export const DUPLICATE_ARGS = {
  allow_duplicate: z.boolean().optional().describe('true: create even if the same call just did.'),
} as const;

/** A write that creates anew each time it is repeated (the API's POST creates; it is not idempotent). */
export function isGuardedCreate(e: Endpoint): boolean {
  return e.write && !e.idempotent;
}

/** An argument that takes a one-part user id, published so that a member id passes too; the server maps it. */
export const userOrMemberId = z
  .string()
  .refine((v) => isId('user', v) || isId('member', v), { message: 'must be a user id (usr_abc) or a member id of this workspace (usr_abc_def)' });
