import { describe, expect, it } from 'vitest';
import { expectWriteEffects } from '../test/helpers/tool-calls.js';
import { everyToolCovered, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The meetings tools (tools/meetings.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('meetings');
const ids = { meeting: '' };

describe('Meetings: list, get, record an outcome', () => {
  it('list_meetings outcome none gives meetings without an outcome', async () => {
    const { structured } = await area.ok('list_meetings', { outcome: ['none'], limit: 5 });
    expect(structured.data.length).toBeGreaterThan(0);
    // The compact view leaves absent values out.
    for (const m of structured.data) expect(m.outcome).toBeUndefined();
    ids.meeting = structured.data[0].id;
  });
  it('get_meeting: one meeting, internal_notes present for a meetings:write key', async () => {
    const { structured } = await area.ok('get_meeting', { meeting_id: ids.meeting });
    expect(structured).toMatchObject({ object: 'meeting', id: ids.meeting });
    // Null fields leave both forms, so the notes are looked for on a meeting that has some.
    const noted = [...area.store().meetings.all()].find((m) => m.internal_notes !== null)!;
    const withNotes = await area.ok('get_meeting', { meeting_id: noted.id });
    expect(withNotes.structured.internal_notes).toContain(noted.internal_notes);
  });
  it('set_meeting_outcome records it and locks the meeting', async () => {
    const { structured } = await area.ok('set_meeting_outcome', { meeting_id: ids.meeting, outcome: 'showed' });
    expectWriteEffects(structured);
    expect(structured).toMatchObject({ outcome: 'showed', locked: true });
    expect(structured.effects.meeting_outcome_set).toBe(true);
    expect(area.store().meetings.get(ids.meeting)?.outcome).toBe('showed');
  });
});

const INVALID: InvalidCall[] = [
  ['list_meetings', { host_id: 'usr_ada_globex' }, 'invalid_id', 'host_id'],
  ['get_meeting', { meeting_id: 'mtg' }, 'invalid_id', 'meeting_id'],
  ['set_meeting_outcome', { meeting_id: 'mtg_abc123', outcome: 'won' }, 'invalid_request', 'outcome'],
];

everyToolCovered(area, INVALID);
