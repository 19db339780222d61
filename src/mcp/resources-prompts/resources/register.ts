import type { McpServer } from '@modelcontextprotocol/server';
import { registerCapabilities } from './capabilities.js';
import { registerConversation } from './conversation.js';
import { sharedResources } from './kit.js';
import { registerLead } from './lead.js';
import { registerLeads } from './leads.js';
import { registerLeadsSince } from './leads-since.js';
import { registerPlaybook } from './playbook.js';
import { registerRosters } from './rosters.js';

/**
 * Leads, conversations and the workspace's playbook, members, tag roster and the API's
 * capabilities as MCP resources, one module per resource template, built once per process
 * (each read finds its session from the request: session-access.ts). Every read goes through
 * the server's client (its rate limiter), and text written by outsiders reaches the model
 * fenced, as in tool results.
 */
export function registerResources(mcp: McpServer): void {
  RESOURCES.registerOn(mcp);
}

const RESOURCES = sharedResources((kit) => {
  for (const register of [registerLeadsSince, registerLeads, registerLead, registerConversation, registerPlaybook, registerRosters, registerCapabilities])
    register(kit);
});
