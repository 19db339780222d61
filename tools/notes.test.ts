import { describe, expect, it } from 'vitest';
import { expectWriteEffects } from '../test/helpers/tool-calls.js';
import { everyToolCovered, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The notes tools (tools/notes.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('notes');

describe('Notes: create and list', () => {
  it('create_note adds a note by the key owner; list_notes shows it', async () => {
    const lead = area.take();
    const { structured } = await area.ok('create_note', { lead_id: lead, body: 'Asked for pricing in EUR.' });
    expectWriteEffects(structured);
    // The answer is compact: the note's id, its lead and effects; the store holds the whole note.
    expect(structured).toMatchObject({ object: 'note', lead_id: lead });
    expect(area.store().notes.get(structured.id)).toMatchObject({ author_id: 'usr_ada', body: 'Asked for pricing in EUR.' });
    const list = await area.ok('list_notes', { lead_id: lead });
    expect(list.structured.data.map((n: any) => n.id)).toContain(structured.id);
  });
});

const L = 'lead_abc123';
const INVALID: InvalidCall[] = [
  ['list_notes', { order: 'sideways' }, 'invalid_request', 'order'],
  ['create_note', { lead_id: L, body: 'x'.repeat(10_001) }, 'invalid_request', 'body'],
];

everyToolCovered(area, INVALID);
