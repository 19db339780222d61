import { defineTool, listOutput, objectOf } from '../src/mcp/tool-kit.js';
import { VIEW, viewOutput } from './support/compact.js';
import { runProjected } from './support/project.js';
import { runSlots, slotsOutput } from './support/zone-time.js';

export const schedulingTools = [
  defineTool({
    endpoint: 'list_event_types',
    title: 'List event types',
    description: 'Bookable meeting types (duration, scheduling type, booking link); pass an id to get_slots to offer times.',
    extra: VIEW,
    output: listOutput(viewOutput('event_type')),
    run: (ctx, args) => runProjected(ctx, args, 'event_type'),
  }),
  defineTool({
    endpoint: 'get_event_type',
    title: 'Get an event type',
    description: 'One event type with its hosts and booking form fields.',
    output: objectOf('event_type'),
  }),
  defineTool({
    endpoint: 'get_slots',
    title: 'Free slots of an event type',
    description:
      "Free times of an event type from..to (at most 60 days), clamped to its booking window: by day, as ranges with slot count, length and step; an empty answer says why when known. Times in the timezone asked for, else the event type's. A live calendar read: costs one upstream call.",
    docs: { from: 'Window start, date-time.', to: 'Window end, date-time (≤ 60 days after from).' },
    output: slotsOutput(),
    run: runSlots,
  }),
];
