import { describe, expect, it } from 'vitest';
import { ApiError, ValidationError } from '../../src/client/index.js';
import { nextStep } from '../../src/mcp/errors.js';
import { sandboxBehindRelay } from '../helpers/behind-relay.js';
import { client, sandbox } from './helpers.js';

const env = sandboxBehindRelay(() => sandbox());
const memberIds = (n: number) => Array.from({ length: n }, (_, i) => `usr_${String(i).padStart(8, '0')}_acme`);
const leadLists = () => env.relay.requests.filter((r) => r.startsWith('GET /v1/workspaces/acme/leads')).length;

describe('Lead list filter rules: assignee_id is bounded as lead_tag_id is (up to 100), refused before sending', () => {
  it('101 assignee ids are refused unsent naming assignee_id; 100 are sent', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.relay.url, discoverLimits: false });
    const before = leadLists();
    const err = await c.call('list_leads', { path: { workspace: 'acme' }, query: { assignee_id: memberIds(101) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ code: 'invalid_request', param: 'assignee_id' });
    expect(leadLists()).toBe(before);
    // The API checks each id names a member: one real member, a hundred times over.
    const real = env.sb.store.membersOf('acme')[0]!.member_id;
    const ok = await c.call('list_leads', { path: { workspace: 'acme' }, query: { assignee_id: Array(100).fill(real) } });
    expect(ok.status).toBe(200);
    expect(leadLists()).toBe(before + 1);
    await c.close();
  });
});

describe('A 414 or 431 from the API or a proxy before it is the fault of the query, not of the moment', () => {
  for (const status of [414, 431]) {
    it(`${status}: invalid_request naming the longest query argument and that the query is too long; sent once, and the next step is to fix it`, async () => {
      env.relay.override = (req) => ((req.url ?? '').includes('/leads?') ? { status, body: '', contentType: 'text/plain' } : null);
      const { client: c } = client(env.sb, { baseUrl: env.relay.url, discoverLimits: false });
      const before = leadLists();
      const err = await c.call('list_leads', { path: { workspace: 'acme' }, query: { assignee_id: memberIds(90), unread: true } }).catch((e: unknown) => e);
      await c.close();
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status, code: 'invalid_request', param: 'assignee_id' });
      expect((err as ApiError).message).toMatch(/query is too long \(\d+ characters, \d+ of them in assignee_id\)/);
      expect(leadLists()).toBe(before + 1);
      const step = nextStep('invalid_request', 'list_leads', { param: 'assignee_id' });
      expect(step).toBe("Fix the argument 'assignee_id' as the message says and call list_leads again.");
      expect(step).not.toMatch(/later/i);
    });
  }
});
