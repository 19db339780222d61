import { z } from 'zod';
import { defineTool, listOf, membersOutput, objectOf, today } from '../src/mcp/tool-kit.js';

/** get_me's addition: today, so that "tomorrow" or "last 7 days" is counted, not guessed. */
const TODAY = z
  .looseObject({
    now: z.string(),
    date_utc: z.string(),
    weekday_utc: z.string(),
    timezone: z.string().optional().describe("The key owner's IANA timezone; absent when the API names none."),
    date: z.string().optional().describe("Today's date in the owner's timezone."),
    weekday: z.string().optional(),
    time: z.string().optional().describe("The owner's wall clock now, HH:MM."),
  })
  .describe("Added by this server: today's date and weekday in UTC and in the key owner's timezone.");

export const workspaceTools = [
  defineTool({
    endpoint: 'get_me',
    title: 'Who am I',
    description:
      "What this key acts for and may do: the owner's user id, usable and withheld scopes, the workspaces it reaches with the owner's member id in each, rate limits; and today, in UTC and the owner's timezone.",
    output: objectOf('me').extend({ today: TODAY }),
    // Today first: every day an agent passes (a due day, a report window) is counted from it.
    run: async (ctx) => {
      const r = await ctx.api.call('get_me', { signal: ctx.signal });
      const me = r.data;
      const cached = r.cachedAgeSeconds !== undefined ? { cached_age_seconds: r.cachedAgeSeconds } : {};
      return { structured: { today: today(ctx.clock.now(), me.owner?.timezone), ...me, ...cached } };
    },
  }),
  defineTool({
    endpoint: 'get_capabilities',
    title: 'API capabilities',
    description: "The API's live enum values, limits, filters and expansions: use it instead of guessing values.",
    output: objectOf('capabilities'),
  }),
  defineTool({
    endpoint: 'list_workspaces',
    title: 'List workspaces',
    description: 'The workspaces this key reaches, with features and granted scopes; an id is the workspace argument of other tools.',
    output: listOf('workspace'),
  }),
  defineTool({
    endpoint: 'get_workspace',
    title: 'Get a workspace',
    description: 'One workspace. include=sdr_notes adds the reply playbook; include=counts adds lead, task and meeting counts but costs an upstream call.',
    docs: { include: 'counts (upstream) and/or sdr_notes.' },
    output: objectOf('workspace'),
  }),
  defineTool({
    endpoint: 'list_members',
    title: 'List workspace members',
    description: 'People of a workspace (reps, active admins): member id and user_id of each.',
    output: membersOutput(),
  }),
];
