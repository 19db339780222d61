import { defineTool } from '../src/mcp/tool/define.js';
import { listOf, membersOutput, objectOf } from '../src/mcp/tool/outputs.js';

export const workspaceTools = [
  defineTool({
    endpoint: 'get_me',
    title: 'Who am I',
    description:
      "What this key acts for and may do: the owner's user id, usable and withheld scopes, the workspaces it reaches with the owner's member id in each, rate limits.",
    output: objectOf('me'),
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
