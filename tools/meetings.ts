import { defineTool, listOutput, objectOf, writeOutput, word } from '../src/mcp/tool-kit.js';
import { VIEW, viewOutput } from './support/compact.js';
import { runPlain, runProjected } from './support/project.js';
import { WRITE_VIEW, runWrite } from './support/write.js';
import { APPROXIMATE, MEETING_TIMES } from './support/approximate.js';
import { withSentences } from './support/said.js';

export const meetingTools = [
  defineTool({
    endpoint: 'list_meetings',
    userIds: ['host_id'],
    title: 'List meetings',
    description:
      'Booked meetings, by booking time. Filter by outcome, source, host, event type, booking or start window. A live calendar read: costs one upstream call per page.',
    docs: { outcome: 'Outcomes; none = not recorded.' },
    extra: VIEW,
    output: listOutput(viewOutput('meeting')).extend(APPROXIMATE),
    // Meeting times can lag the host's calendar (spec): a page with meetings says so.
    run: async (ctx, args) => {
      const page = await runProjected(ctx, args, 'meeting');
      const some = Array.isArray(page.structured.data) && page.structured.data.length > 0;
      return withSentences(page, { approximate: some ? [MEETING_TIMES] : [] });
    },
  }),
  defineTool({
    endpoint: 'get_meeting',
    title: 'Get a meeting',
    description:
      'One meeting with invitee, guests, custom fields, location, outcome; internal_notes for keys with meetings:write. Times can lag the calendar by 15 minutes.',
    output: objectOf('meeting').extend(APPROXIMATE),
    run: async (ctx, args) => withSentences(await runPlain(ctx, args), { approximate: [MEETING_TIMES] }),
  }),
  defineTool({
    endpoint: 'set_meeting_outcome',
    title: 'Record a meeting outcome',
    description:
      'Records what happened at a meeting, mirrored to the lead (status unchanged). The meeting is then locked: changing the outcome needs force=true.',
    docs: { outcome: 'What happened.' },
    extra: WRITE_VIEW,
    did: 'outcome recorded',
    output: writeOutput('meeting'),
    run: runWrite(['outcome', 'outcome_at', 'locked']),
    // A first outcome is routine; force overwrites one already recorded and locked.
    confirm: {
      when: (a: { outcome: string; force?: boolean }) => a.force === true,
      asks: 'when force is true',
      change: (a: { outcome: string }, now) =>
        now?.outcome
          ? `Its recorded outcome changes from ${word(now.outcome)} to ${a.outcome}, and the meeting stays locked.`
          : `Its outcome is set to ${a.outcome} (none is recorded yet), and the meeting is locked.`,
    },
  }),
];
