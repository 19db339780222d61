import type { ToolDef } from '../src/mcp/tool-kit.js';
import { campaignTools } from './campaigns.js';
import { conversationTools } from './conversations.js';
import { insightTools } from './insights.js';
import { leadTools } from './leads.js';
import { meetingTools } from './meetings.js';
import { noteTools } from './notes.js';
import { schedulingTools } from './scheduling.js';
import { taskTools } from './tasks.js';
import { templateTools } from './templates.js';
import { workspaceTools } from './workspaces.js';

/** Every MCP tool, one per endpoint of the v1 API (the mobile-session pair excepted). */
export const ALL_TOOLS: readonly ToolDef[] = [
  ...workspaceTools,
  ...leadTools,
  ...conversationTools,
  ...taskTools,
  ...noteTools,
  ...meetingTools,
  ...schedulingTools,
  ...templateTools,
  ...campaignTools,
  ...insightTools,
] as ToolDef[];
