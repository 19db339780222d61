import { defineTool, DESK_URI, listOf, listOutput, objectOf } from '../src/mcp/tool-kit.js';
import { VIEW, viewOutput } from './support/compact.js';
import { runDraft } from './support/draft.js';
import { runProjected } from './support/project.js';
import { REPLY_OUTPUT } from './support/reply-to.js';

export const templateTools = [
  defineTool({
    endpoint: 'list_templates',
    title: 'List reply templates',
    description:
      'Reply templates (global ones too): name, subject, AI variables (absent: none); view=full adds the raw body and its variables. Never send a raw body: render it with render_template.',
    extra: VIEW,
    output: listOutput(viewOutput('template')),
    run: (ctx, args) => runProjected(ctx, args, 'template'),
  }),
  defineTool({
    endpoint: 'get_template',
    title: 'Get a reply template',
    description: 'One reply template with raw body, variables and AI variable names.',
    output: objectOf('template'),
  }),
  defineTool({
    endpoint: 'render_template',
    desk: DESK_URI,
    title: 'Render a template for a lead',
    description:
      "Fills a template's tokens from a lead into a draft for a human to send, with reply: the subject and sender that keep the lead's thread (one thread read). Write AI variables into overrides. Writes nothing.",
    output: objectOf('rendered_template').extend(REPLY_OUTPUT),
    run: runDraft,
  }),
  defineTool({
    endpoint: 'list_template_folders',
    title: 'List template folders',
    description: "Folders of reply templates; an id is list_templates' folder_id.",
    output: listOf('template_folder'),
  }),
  defineTool({
    endpoint: 'list_assets',
    title: 'List sales assets',
    description: "Videos, documents, links and snippets a rep can share (yours and the workspace's).",
    output: listOf('asset'),
  }),
];
