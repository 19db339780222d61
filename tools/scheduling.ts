import { defineTool } from '../src/mcp/runtime/tool.js';
import { listOutput, objectOf } from '../src/mcp/runtime/outputs.js';
import { VIEW, viewOutput } from './support/compact.js';
import { runProjected } from './support/project.js';

export const schedulingTools = [
  defineTool({
    endpoint: 'list_event_types',
    title: 'List event types',
    description: 'Bookable meeting types of a workspace (duration, scheduling type, public booking link). Filter by active and public. Use an id with get_slots to offer times. Costs one read per page.',
    extra: VIEW,
    output: listOutput(viewOutput('event_type')),
    run: (ctx, args) => runProjected(ctx, 'list_event_types', args, 'event_type'),
  }),
  defineTool({
    endpoint: 'get_event_type',
    title: 'Get an event type',
    description: 'One event type with its hosts and booking form fields. Costs one read.',
    output: objectOf('event_type'),
  }),
  defineTool({
    endpoint: 'get_slots',
    title: 'Free slots of an event type',
    description:
      'Free start times of an event type between from and to (at most 60 days), in the time zone you name. The service clamps the window to the booking window and minimum notice; an empty list comes with a reason when known. Slots carry no host. A live calendar read: costs one call of the scarce upstream bucket (10 per minute).',
    docs: { from: 'Window start, ISO date-time.', to: 'Window end, ISO date-time (at most 60 days after from).' },
    output: objectOf('availability'),
  }),
];
