import type { HandlerTable, Handlers } from '../context.js';
import { campaignsHandlers } from './campaigns.js';
import { conversationsHandlers } from './conversations.js';
import { insightsHandlers } from './insights.js';
import { leadsHandlers } from './leads.js';
import { meetingsHandlers } from './meetings.js';
import { mobileHandlers } from './mobile.js';
import { notesHandlers } from './notes.js';
import { schedulingHandlers } from './scheduling.js';
import { tasksHandlers } from './tasks.js';
import { templatesHandlers } from './templates.js';
import { workspacesHandlers } from './workspaces.js';

/** Every endpoint's handler, by endpoint name: one missing does not compile. */
export const HANDLER_TABLE: HandlerTable = {
  ...workspacesHandlers,
  ...leadsHandlers,
  ...conversationsHandlers,
  ...tasksHandlers,
  ...notesHandlers,
  ...meetingsHandlers,
  ...schedulingHandlers,
  ...templatesHandlers,
  ...campaignsHandlers,
  ...insightsHandlers,
  ...mobileHandlers,
};

/**
 * The handlers as the server looks them up, by the name of the endpoint a request routed to.
 * The one cast of the sandbox's requests: the router found the path's ids by the endpoint's
 * placeholders, and the query and body passed its Params and schema, so a handler gets what
 * its CtxOf says.
 */
export const HANDLERS = HANDLER_TABLE as unknown as Handlers;
