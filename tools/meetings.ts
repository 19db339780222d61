import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOf, objectOf, withEffects } from '../src/mcp/runtime/outputs.js';

export const meetingTools = [
  defineTool({
    endpoint: 'list_meetings',
    title: 'List meetings',
    description:
      'Booked meetings, by booking time. Filter by outcome, source, host, event type, booking or start window. A live calendar read: costs one upstream call per page.',
    docs: { outcome: 'Outcomes; none = not recorded.' },
    output: listOf('meeting'),
  }),
  defineTool({
    endpoint: 'get_meeting',
    title: 'Get a meeting',
    description: 'One meeting with invitee, guests, custom fields, location, outcome; internal_notes for keys with meetings:write. Times can lag the calendar by 15 minutes.',
    output: objectOf('meeting'),
  }),
  defineTool({
    endpoint: 'set_meeting_outcome',
    title: 'Record a meeting outcome',
    description:
      'Records what happened at a meeting, mirrored to the lead (status unchanged). The meeting is then locked: changing the outcome needs force=true.',
    docs: { outcome: 'What happened.' },
    output: withEffects(objectOf('meeting')),
    // A first outcome is routine; force overwrites one already recorded and locked.
    confirm: {
      when: (a: { outcome: string; force?: boolean }) => a.force === true,
      asks: 'when force is true',
      change: (a: { outcome: string }) => `Its recorded outcome is overwritten with ${a.outcome}, and the meeting stays locked.`,
    },
  }),
];
