/**
 * The tool kit: all a tool (tools/) uses of the server core, and the only module of src/mcp
 * that tools/ imports (test/unit/architecture.test.ts holds both). The core's rooms stay free
 * to move behind it; a tool that needs more asks for it here, by name.
 */

// Declaring a tool: defineTool, what its run receives and returns, its output schemas.
export { defineTool } from './declare/define.js';
export type { ToolDef } from './declare/types.js';
export type { ToolContext } from './declare/tool-context.js';
export { listOf, listOutput, membersOutput, objectOf, resourceOf, writeOutput } from './declare/outputs.js';
// A tool's own endpoint, called with its arguments split by the table; an answer's fields.
export { callOwn, isFields } from './declare/own-call.js';
export type { ToolOutput } from './view/output.js';

// Refusals: a typed error becomes the tool error envelope with its next step.
export { ToolError, errorBody } from './errors.js';

// What a model reads: lines, links, fencing of outsiders' text, shaping, quoted words, today.
export { oneLines, pageTable, writeLines } from './view/lines.js';
export { conversationLink, leadLink } from './view/links.js';
export { type Fence, UNTRUSTED_LINE, UNTRUSTED_MARK } from './view/fence.js';
export { isOutsideField, textOf } from './view/shape.js';
export { word } from './view/quote.js';
export { today } from './view/today.js';

// Reads a tool shares with a resource: the conversation, downloads, many leads' threads.
export { CONVERSATION_CAP, CONVERSATION_TOOL, runConversation, runDownload, subjectTopic } from './reads/conversation.js';
export { MANY_LEADS_MAX, MANY_LEADS_MESSAGES, runConversations } from './reads/conversations.js';

// The reply desk a tool's result may be shown in.
export { DESK_URI } from './desk/constants.js';
