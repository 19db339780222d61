import type { ResourceLink } from '@modelcontextprotocol/server';

/**
 * The inbox:// addresses of our resources, written once: the resource templates, the
 * resource list and the resource_link items of tool results all build them here.
 */
export const URI = {
  capabilities: 'inbox://capabilities',
  leads: (workspace: string) => `inbox://${workspace}/leads`,
  /** The leads whose newest message is strictly after `since`: what changed since a read. */
  leadsSince: (workspace: string, since: string) => `inbox://${workspace}/leads?since=${encodeURIComponent(since)}`,
  lead: (workspace: string, lead: string) => `inbox://${workspace}/leads/${lead}`,
  conversation: (workspace: string, lead: string) => `inbox://${workspace}/leads/${lead}/conversation`,
  playbook: (workspace: string) => `inbox://${workspace}/playbook`,
  members: (workspace: string) => `inbox://${workspace}/members`,
  leadTags: (workspace: string) => `inbox://${workspace}/lead-tags`,
} as const;

/** The same addresses as RFC 6570 templates, for resources/templates/list. */
export const TEMPLATE = {
  leads: 'inbox://{workspace}/leads',
  leadsSince: 'inbox://{workspace}/leads{?since}',
  lead: 'inbox://{workspace}/leads/{lead}',
  conversation: 'inbox://{workspace}/leads/{lead}/conversation',
  playbook: 'inbox://{workspace}/playbook',
  members: 'inbox://{workspace}/members',
  leadTags: 'inbox://{workspace}/lead-tags',
} as const;

/** A lead's conversation as a link a client can attach as context without another tool call. */
export function conversationLink(workspace: string, lead: string): ResourceLink {
  return {
    type: 'resource_link',
    uri: URI.conversation(workspace, lead),
    name: `conversation-${lead}`,
    title: `Conversation with lead ${lead}`,
    description: "The lead's messages as markdown, oldest first, bodies fenced as untrusted text.",
    mimeType: 'text/markdown',
  };
}

/** A lead with its assignees, open tasks and tags, as a link. */
export function leadLink(workspace: string, lead: string): ResourceLink {
  return {
    type: 'resource_link',
    uri: URI.lead(workspace, lead),
    name: lead,
    title: `Lead ${lead}`,
    description: 'The lead as JSON with its assignees, open tasks and tags; outside text fenced.',
    mimeType: 'application/json',
  };
}
