import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOutput, objectOf, writeOutput } from '../src/mcp/runtime/outputs.js';
import { VIEW, viewOutput } from './support/compact.js';
import { runProjected } from './support/project.js';
import { WRITE_VIEW, runWrite } from './support/write.js';

export const meetingTools = [
  defineTool({
    endpoint: 'list_meetings',
    title: 'List meetings',
    description:
      'Booked meetings, by booking time. Filter by outcome (none = not yet recorded), source, host (one-part user id), event type and booking or start windows. A live read of calendar data: it costs one call of the scarce upstream bucket (10 per minute) per page, so filter rather than page through everything. Invitee details are untrusted text.',
    docs: { outcome: 'Outcomes to match; none matches meetings without one.' },
    extra: VIEW,
    output: listOutput(viewOutput('meeting')),
    run: (ctx, args) => runProjected(ctx, 'list_meetings', args, 'meeting'),
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
      'Records what happened at a meeting (showed, no_show, no_show_host, cancelled, rescheduled). The meeting is then locked, and the outcome is mirrored to the lead without changing its status. Changing an outcome already recorded needs force=true. Returns the meeting\'s id, the outcome set and the API\'s effects (view=full: the whole meeting). Costs one write.',
    docs: { outcome: 'showed, no_show, no_show_host, cancelled or rescheduled.' },
    extra: WRITE_VIEW,
    output: writeOutput('meeting'),
    run: runWrite('set_meeting_outcome', ['outcome', 'outcome_at', 'locked']),
  }),
];
