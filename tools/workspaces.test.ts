import { describe, expect, it } from 'vitest';
import { everyToolCovered, type InvalidCall, toolArea } from '../test/helpers/tool-area.js';

/** The workspaces tools (tools/workspaces.ts), served in process: valid calls, then one invalid call each. */
const area = toolArea('workspaces');

describe('Workspaces tools answer valid calls with the API resource as structuredContent', () => {
  it('get_me: the admin key acts for Ada and reaches three workspaces with two-part member ids', async () => {
    const { structured } = await area.ok('get_me');
    expect(structured.owner.id).toBe('usr_ada');
    expect(structured.workspaces.map((w: any) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
    for (const w of structured.workspaces) expect(w.member_id).toMatch(/^usr_[A-Za-z0-9]+_[A-Za-z0-9]+$/);
  });
  it('get_capabilities: api_version v1 and the lead status enum', async () => {
    const { structured } = await area.ok('get_capabilities');
    expect(structured.object).toBe('capabilities');
    expect(structured.api_version).toBe('v1');
    expect(structured.enums.lead_status).toEqual(['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged']);
  });
  it('list_workspaces: a list envelope of the three workspaces', async () => {
    const { structured } = await area.ok('list_workspaces');
    expect(structured).toMatchObject({ object: 'list', has_more: false });
    expect(structured).not.toHaveProperty('next_cursor');
    expect(structured.data.map((w: any) => w.id).sort()).toEqual(['acme', 'globex', 'initech']);
  });
  it('get_workspace: include sdr_notes adds the playbook field', async () => {
    const { structured } = await area.ok('get_workspace', { include: ['sdr_notes'] });
    expect(structured).toMatchObject({ object: 'workspace', id: 'acme' });
    expect('sdr_notes' in structured).toBe(true);
  });
  it('list_members: assignable members carry two-part ids', async () => {
    const { structured } = await area.ok('list_members', { assignable: true });
    expect(structured.object).toBe('list');
    expect(structured.data.length).toBeGreaterThan(0);
    for (const m of structured.data) {
      expect(m.assignable).toBe(true);
      expect(m.id).toMatch(/^usr_[A-Za-z0-9]+_acme$/);
    }
  });
});

const INVALID: InvalidCall[] = [
  ['get_me', { verbose: true }, 'invalid_request', 'verbose'],
  ['get_capabilities', { section: 'enums' }, 'invalid_request', 'section'],
  ['list_workspaces', { limit: 5 }, 'invalid_request', 'limit'],
  ['get_workspace', { workspace: 42 }, 'invalid_request', 'workspace'],
  ['list_members', { limit: 0 }, 'invalid_request', 'limit'],
];

everyToolCovered(area, INVALID);
