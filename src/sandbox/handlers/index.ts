import type { Handlers } from '../context.js';
import { campaignsHandlers } from './campaigns.js';
import { conversationsHandlers } from './conversations.js';
import { insightsHandlers } from './insights.js';
import { leadsHandlers } from './leads.js';
import { meetingsHandlers } from './meetings.js';
import { metaHandlers } from './meta.js';
import { notesHandlers } from './notes.js';
import { schedulingHandlers } from './scheduling.js';
import { tasksHandlers } from './tasks.js';
import { templatesHandlers } from './templates.js';

/** Every endpoint's handler, by endpoint name. A test checks none is missing. */
export const HANDLERS: Handlers = {
  ...metaHandlers,
  ...leadsHandlers,
  ...conversationsHandlers,
  ...tasksHandlers,
  ...notesHandlers,
  ...meetingsHandlers,
  ...schedulingHandlers,
  ...templatesHandlers,
  ...campaignsHandlers,
  ...insightsHandlers,
};
