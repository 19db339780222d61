import { defineTool, listOf, writeOutput } from '../src/mcp/tool-kit.js';
import { runWrite } from './support/write.js';

export const noteTools = [
  defineTool({
    endpoint: 'list_notes',
    userIds: ['author_id'],
    title: 'List notes',
    description: 'Notes on leads, newest first. Filter by lead, author or creation time.',
    output: listOf('note'),
  }),
  defineTool({
    endpoint: 'create_note',
    title: 'Add a note to a lead',
    description: 'Adds a note by you to a lead. Not idempotent: after an unknown outcome, check list_notes before retrying.',
    docs: { body: 'The note, 1-10,000 chars.' },
    did: 'created',
    output: writeOutput('note'),
    run: runWrite(['lead_id', 'reply_id', 'created_at']),
  }),
];
