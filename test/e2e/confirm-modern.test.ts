import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Asking, type RelayedMcp, callErr, callOk, someLead, startRelayedMcp, withElicitation, writesSince } from './helpers.js';

/**
 * A 2026-07-28 client has no channel for a request of the server's: the confirmation comes as
 * input_required inside the tool call (the question and a signed state), the client's SDK asks
 * the person (its elicitation handler) and calls again with the answer. The binary runs
 * against a sandbox behind a counting relay: a declined or missing answer sends nothing.
 */
async function modernAsking(args: string[]): Promise<Asking> {
  const r = await withElicitation(args, 'modern');
  expect(r.s.client.getProtocolEra()).toBe('modern');
  return r;
}

describe('a 2026-07-28 client that can ask: the confirmation is an input_required round (--confirm destructive)', () => {
  let r: Asking;
  beforeAll(async () => {
    r = await modernAsking([]);
  });
  afterAll(() => r?.close());

  it("accept: the person is asked today's question, then the write goes ahead, once", async () => {
    const lead = someLead(r, 0);
    const from = r.proxy.requests.length;
    r.answer = 'accept';
    const out = await callOk(r.s, 'set_status', { lead_id: lead, status: 'unsubscribed' });
    expect(out.structured.id).toBe(lead);
    expect(r.questions).toHaveLength(1);
    expect(r.questions[0]).toContain(`Lead ${lead}`);
    expect(r.questions[0]).toContain('Nothing is sent unless you accept.');
    expect(writesSince(r, from)).toEqual([`POST /v1/workspaces/acme/leads/${lead}/status`]);
  });

  it.each(['decline', 'cancel'] as const)('%s: the tool answers that the person declined, and nothing reaches the API', async (action) => {
    const lead = someLead(r, 1);
    const from = r.proxy.requests.length;
    r.answer = action;
    const err = await callErr(r.s, 'set_status', { lead_id: lead, status: 'unsubscribed' });
    expect(err.error.code).toBe('declined');
    expect(writesSince(r, from)).toEqual([]);
  });

  it('a tampered state is refused with -32602 and writes nothing', async () => {
    const lead = someLead(r, 2);
    const from = r.proxy.requests.length;
    const call = { name: 'set_status', arguments: { lead_id: lead, status: 'unsubscribed' } };
    const forged = { ...call, inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: 'v1.e30.AAAA' };
    // The SDK checks the signature before the call runs: its frozen answer.
    await expect(r.s.client.request({ method: 'tools/call', params: forged } as never)).rejects.toThrow(/Invalid or expired requestState/);
    expect(writesSince(r, from)).toEqual([]);
  });
});

describe('a 2026-07-28 client that cannot ask gets the answer it gets today: the write goes ahead', () => {
  let r: RelayedMcp;
  beforeAll(async () => {
    r = await startRelayedMcp(['--workspace', 'acme', '--log-level', 'warn'], undefined, {}, 'modern');
  });
  afterAll(() => r?.close());

  it('set_status without elicitation: written, nothing asked', async () => {
    const lead = someLead(r, 3);
    const from = r.proxy.requests.length;
    await callOk(r.s, 'set_status', { lead_id: lead, status: 'unsubscribed' });
    expect(writesSince(r, from)).toEqual([`POST /v1/workspaces/acme/leads/${lead}/status`]);
  });
});
