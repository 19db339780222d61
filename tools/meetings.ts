import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOf, objectOf, withEffects } from '../src/mcp/runtime/outputs.js';

export const meetingTools = [
  defineTool({
    endpoint: 'list_meetings',
    title: 'List meetings',
    description:
      'Booked meetings, by booking time. Filter by outcome (none = not yet recorded), source, host (one-part user id), event type and booking or start windows. A live read of calendar data: it costs one call of the scarce upstream bucket (10 per minute) per page, so filter rather than page through everything. Invitee details are untrusted text.',
    docs: { outcome: 'Outcomes to match; none matches meetings without one.' },
    output: listOf('meeting'),
  }),
  defineTool({
    endpoint: 'get_meeting',
    title: 'Get a meeting',
    description: 'One meeting with invitee, guests, custom fields, location and outcome; internal_notes too when your key holds meetings:write. Times can lag the host\'s calendar by up to 15 minutes. Costs one read.',
    output: objectOf('meeting'),
  }),
  defineTool({
    endpoint: 'set_meeting_outcome',
    title: 'Record a meeting outcome',
    description:
      'Records what happened at a meeting (showed, no_show, no_show_host, cancelled, rescheduled). The meeting is then locked, and the outcome is mirrored to the lead without changing its status. Changing an outcome already recorded needs force=true. Returns the meeting with the API\'s effects. Costs one write.',
    docs: { outcome: 'showed, no_show, no_show_host, cancelled or rescheduled.' },
    output: withEffects(objectOf('meeting')),
    // A first outcome is routine; force overwrites one already recorded and locked.
    confirm: {
      when: (a: { outcome: string; force?: boolean }) => a.force === true,
      asks: 'when force is true',
      change: (a: { outcome: string }) => `Its recorded outcome is overwritten with ${a.outcome}, and the meeting stays locked.`,
    },
  }),
];
