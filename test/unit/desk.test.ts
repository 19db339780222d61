import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classificationLabel, leadName, stateLabel, statusLabel, variableLabel } from '../../desk/labels.js';
import { segments, valuesOf } from '../../desk/segments.js';
import { STATUSES } from '../../desk/statuses.js';
import { LEAD_STATUS_INPUT } from '../../src/api/enums.js';
import { APP_MIME, DESK_URI, UI_EXTENSION } from '../../src/mcp/desk/constants.js';
import { rendersApps, withDesk } from '../../src/mcp/desk/negotiate.js';
import { publishedTool } from '../../src/mcp/declare/publish.js';
import { ALL_TOOLS } from '../../tools/index.js';

describe('the reply desk is negotiated as the io.modelcontextprotocol/ui extension says', () => {
  it('a client renders apps when it lists the extension with our MIME type, or with no MIME list', () => {
    expect(rendersApps({ extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME] } } } as never)).toBe(true);
    expect(rendersApps({ extensions: { [UI_EXTENSION]: {} } } as never)).toBe(true);
  });

  it('a client without the extension, or with other MIME types only, does not', () => {
    expect(rendersApps(undefined)).toBe(false);
    expect(rendersApps({})).toBe(false);
    expect(rendersApps({ extensions: { 'other/ext': {} } } as never)).toBe(false);
    expect(rendersApps({ extensions: { [UI_EXTENSION]: { mimeTypes: ['text/html'] } } } as never)).toBe(false);
  });

  it('the app goes into _meta.ui.resourceUri (and the flat ui/resourceUri), nowhere else', () => {
    const t = publishedTool(ALL_TOOLS.find((x) => x.name === 'list_leads')!);
    const shown = withDesk(t, DESK_URI);
    expect(shown._meta).toEqual({ ui: { resourceUri: DESK_URI }, 'ui/resourceUri': DESK_URI });
    expect({ ...shown, _meta: undefined }).toEqual({ ...t, _meta: undefined });
    expect(withDesk(t, undefined)).toBe(t);
    // The published form itself (what every client gets, cached and built into the binary) has no app.
    expect(t._meta).toBeUndefined();
  });

  it('render_template, get_conversation and list_leads carry the desk, and no other tool', () => {
    const withDesk = ALL_TOOLS.filter((t) => t.desk).map((t) => [t.name, t.desk]);
    expect(withDesk.sort()).toEqual([
      ['get_conversation', DESK_URI],
      ['list_leads', DESK_URI],
      ['render_template', DESK_URI],
    ]);
  });

  it("the board's status choices are the statuses set_status takes", () => {
    expect([...STATUSES].sort()).toEqual([...LEAD_STATUS_INPUT].sort());
  });
});

describe('the Draft view marks each value by where it came from, by walking the template through the rendering', () => {
  it('values from the records, from overrides, and tokens left literal are told apart', () => {
    const segs = segments('Hi {{first_name}}, see {{ cal_link }} from {{sender_first_name}}.', 'Hi Ravi, see {{ cal_link }} from Dee.', {
      sender_first_name: 'Dee',
    });
    expect(segs).toEqual([
      { text: 'Hi ' },
      { text: 'Ravi', name: 'first_name', kind: 'lead' },
      { text: ', see ' },
      { text: '{{ cal_link }}', name: 'cal_link', kind: 'unresolved' },
      { text: ' from ' },
      { text: 'Dee', name: 'sender_first_name', kind: 'override' },
      { text: '.' },
    ]);
    expect(valuesOf(segs)).toEqual({ first_name: 'Ravi', sender_first_name: 'Dee' });
    expect(segs.map((s) => s.text).join('')).toBe('Hi Ravi, see {{ cal_link }} from Dee.');
  });

  it('a value holding markup stays a string of text, whatever it says', () => {
    const hostile = '<img src=x onerror=alert(1)></p><script>alert(2)</script>';
    const segs = segments('Hi {{first_name}}!', `Hi ${hostile}!`, {});
    expect(segs[1]).toEqual({ text: hostile, name: 'first_name', kind: 'lead' });
  });

  it('when the walk cannot be sure (no template, tokens side by side, text that does not match), only literal tokens are marked', () => {
    expect(segments(null, 'Hi {{x}} there', {})).toEqual([{ text: 'Hi ' }, { text: '{{x}}', name: 'x', kind: 'unresolved' }, { text: ' there' }]);
    expect(segments('{{a}}{{b}}!', 'AB!', {})).toEqual([{ text: 'AB!' }]);
    expect(segments('Hello {{a}}', 'Bye Ann', {})).toEqual([{ text: 'Bye Ann' }]);
  });
});

describe('the desk speaks to people in words, never in raw values', () => {
  it('statuses, classifications and states have labels; a value no table knows shows as itself, readable', () => {
    expect(STATUSES.map(statusLabel)).toEqual(['Interested', 'Not interested', 'Automated', 'Unsubscribed', 'Untagged', 'Do not contact']);
    expect(statusLabel('legacy_hold')).toBe('Legacy hold');
    expect(classificationLabel('OUT_OF_OFFICE')).toBe('Out of office');
    expect(classificationLabel('DNC')).toBe('Do not contact');
    expect(classificationLabel('SOMETHING_NEW')).toBe('Something new');
    // A value outside the enum comes fenced as an outsider's text: read without the fence.
    expect(classificationLabel('<untrusted-e4815b>OUT_OF_OFFICE</untrusted-e4815b>')).toBe('Out of office');
    expect(stateLabel('booked')).toBe('Meeting booked');
    expect(statusLabel(null)).toBe('');
  });

  it("template variables read as what they hold, the lead's or the sender's", () => {
    expect(variableLabel('first_name')).toBe('Their first name');
    expect(variableLabel('sender_first_name')).toBe('Your first name');
    expect(variableLabel('cal_link')).toBe('Your booking link');
    expect(variableLabel('ai_opener')).toBe('AI opener');
  });

  it('a lead without a name is named by email, and by id only with neither', () => {
    expect(leadName({ first_name: '<untrusted-ab12>Ada</untrusted-ab12>', last_name: 'Byron', email: 'a@x' })).toBe('Ada Byron');
    expect(leadName({ email: 'info@anonymous.example', id: 'lead_1' })).toBe('info@anonymous.example');
    expect(leadName({ id: 'lead_1' })).toBe('lead_1');
  });
});

describe('the desk sits inline in a chat: its own reads are existing tools, its layout grows with the conversation', () => {
  const DESK = new URL('../../desk/', import.meta.url);
  const sources = readdirSync(DESK)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(new URL(f, DESK), 'utf8'))
    .join('\n');

  it('every tool the view calls through the host is one the model already has: no tool of its own, no byte added to the tool list', () => {
    const called = [...new Set([...sources.matchAll(/host\.call(?:Whole)?\(\s*'([a-z_]+)'/g)].map((m) => m[1]!))].sort();
    const writes = [...sources.matchAll(/write\(host, ref, '([a-z_]+)'/g)].map((m) => m[1]!);
    expect(called.length).toBeGreaterThan(5);
    const names = new Set(ALL_TOOLS.map((t) => t.name));
    for (const name of [...called, ...writes, 'mark_unread']) expect(names.has(name), name).toBe(true);
  });

  it('no viewport-height sizing and no scroll area of its own, in the style or the markup', () => {
    const css = readFileSync(new URL('style.css', DESK), 'utf8');
    expect(css).not.toMatch(/\d(d|s|l)?vh\b/);
    expect(css).not.toMatch(/overflow(-[xy])?:\s*(auto|scroll)/);
    expect(sources).not.toMatch(/\bvh\b|overflow(-[xy])?\s*=/);
  });

  it('shows a skeleton until the tool result arrives, and answers a cancelled tool', () => {
    const html = readFileSync(new URL('index.html', DESK), 'utf8');
    expect(html).toMatch(/<main id="desk"[^>]*aria-busy="true"><div class="view skeleton">/);
    expect(sources).toContain('app.on.toolcancelled');
  });
});
