import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOf, objectOf } from '../src/mcp/runtime/outputs.js';

export const workspaceTools = [
  defineTool({
    endpoint: 'get_me',
    title: 'Who am I',
    description:
      'What this API key acts for and may do now: the owner (their one-part user id, used for task, note and meeting filters), usable scopes and those withheld by the owner\'s role, the workspaces it reaches with the owner\'s two-part member id in each (used for lead assignee filters), and the rate limits. Call it first when you need your own ids. Costs one read.',
    output: objectOf('me'),
  }),
  defineTool({
    endpoint: 'get_capabilities',
    title: 'API capabilities',
    description:
      'The live enum values, limits, filters per endpoint and expansions of the Reply Inbox API. Use it instead of guessing allowed values (lead statuses, meeting outcomes, task types). Costs one read.',
    output: objectOf('capabilities'),
  }),
  defineTool({
    endpoint: 'list_workspaces',
    title: 'List workspaces',
    description: 'The workspaces this key reaches, with their features and the scopes granted in each. Use a workspace\'s id (its slug) as the workspace argument of other tools. Costs one read.',
    output: listOf('workspace'),
  }),
  defineTool({
    endpoint: 'get_workspace',
    title: 'Get a workspace',
    description:
      'One workspace. include=sdr_notes adds the team\'s playbook for replying; include=counts adds lead, open-task and upcoming-meeting counts but costs one call of the scarce upstream bucket (10 per minute). Costs one read otherwise.',
    docs: { include: 'counts (upstream bucket) and/or sdr_notes (the team playbook).' },
    output: objectOf('workspace'),
  }),
  defineTool({
    endpoint: 'list_members',
    title: 'List workspace members',
    description:
      'People of a workspace: reps assigned to it and active admins. Their ids are two-part member ids (usr_…_…), the form set_assignees and the lead assignee filter take. Filter with active and assignable. Costs one read per page.',
    output: listOf('member'),
  }),
];
