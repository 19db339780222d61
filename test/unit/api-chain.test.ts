import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../src/api/endpoints.js';
import { TimeoutError } from '../../src/client/errors.js';
import type { ApiClient, ApiRequest } from '../../src/mcp/declare/tool-context.js';
import { InvalidResponseError } from '../../src/mcp/errors.js';
import { serverApi, toolCallApi } from '../../src/mcp/pipeline/api-chain.js';

// The API as a tool call sees it is one chain of layers around the client, in one order
// (src/mcp/pipeline/api-chain.ts): checked, deadline, paging, recorded.

const never = new AbortController().signal;
const tags = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ object: 'lead_tag', id: `ltg_${from + i}`, name: `tag ${from + i}` }));

/** A client serving lead tags by cursor (an index), a second passing on the server's clock at each call; `bad` answers a tag without its name. */
function tagsClient(clock: { now: number }, o: { bad?: boolean } = {}) {
  const sent: ApiRequest[] = [];
  const client: ApiClient = {
    async call(_name, req) {
      sent.push(req);
      clock.now += 1_000;
      const start = Number(req.query?.cursor ?? 0);
      const data = o.bad ? [{ object: 'lead_tag', id: 'ltg_x' }] : tags(start, Number(req.query?.limit ?? 50));
      return { data: { object: 'list', data, has_more: true, next_cursor: String(start + data.length) } };
    },
  };
  return { client, sent };
}

function callApis(client: ApiClient, clock: { now: number }, bound: number | undefined) {
  return toolCallApi(serverApi(client).checked, {
    endpoint: endpoint('list_lead_tags'),
    deadlineMs: 50_000,
    deadlineAt: 51_000,
    now: () => clock.now,
    bound,
    signal: never,
    onPage: () => undefined,
  });
}

describe('one chain of layers around the client, in one order', () => {
  it("a tool's list read: paged to its bound, each page sent with what is left of the deadline, the request kept for the continuation", async () => {
    const clock = { now: 1_000 };
    const { client, sent } = tagsClient(clock);
    const apis = callApis(client, clock, 30);
    const first = await apis.tool.call('list_lead_tags', { path: { workspace: 'acme' }, query: { limit: 7 } });
    // Paging sizes the page by the bound, not by the tool's limit; the deadline layer beneath it gives the page what is left.
    expect(first.data.data).toHaveLength(30);
    expect(sent[0]).toMatchObject({ path: { workspace: 'acme' }, query: { limit: 30 }, deadlineMs: 50_000 });
    // The continuation asks from the recorded request, through the deadline layer: 10 kept, the cursor after them.
    expect(await apis.cont.cursorAfter(10, never)).toBe('10');
    expect(sent[1]).toMatchObject({ path: { workspace: 'acme' }, query: { limit: 10 }, deadlineMs: 49_000 });
  });

  it('the confirmation question reads checked and within the deadline, unpaged', async () => {
    const clock = { now: 1_000 };
    const { client, sent } = tagsClient(clock);
    const r = await callApis(client, clock, 30).question.call('list_lead_tags', { path: { workspace: 'acme' }, query: { limit: 7 } });
    expect(r.data.data).toHaveLength(7);
    expect(sent[0]).toMatchObject({ query: { limit: 7 }, deadlineMs: 50_000 });
  });

  it('every answer is checked against its row, a page of a paged read too', async () => {
    const clock = { now: 1_000 };
    const { client } = tagsClient(clock, { bad: true });
    await expect(callApis(client, clock, 30).tool.call('list_lead_tags', { path: { workspace: 'acme' } })).rejects.toThrow(InvalidResponseError);
    await expect(callApis(client, clock, undefined).tool.call('list_lead_tags', { path: { workspace: 'acme' } })).rejects.toThrow(/data\.0\.name/);
    await expect(serverApi(client).typed.call('list_lead_tags', { path: { workspace: 'acme' } })).rejects.toThrow(InvalidResponseError);
  });

  it("nothing is sent once the tool call's deadline has passed", async () => {
    const clock = { now: 52_000 };
    const { client, sent } = tagsClient(clock);
    await expect(callApis(client, clock, undefined).tool.call('list_lead_tags', { path: { workspace: 'acme' } })).rejects.toThrow(TimeoutError);
    expect(sent).toHaveLength(0);
  });

  it('the layers are built in api-chain.ts alone', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
      );
    // A layer is built by calling checkedApi or multiPageApi, or by a Continuation's wrap.
    const builds = /(?<!function )\b(checkedApi|multiPageApi)\(|\.wrap\([^)]*\b(api|paging|timed)\b/;
    const builders = [...walk('src'), ...walk('tools')].filter((f) => builds.test(readFileSync(join(root, f), 'utf8')));
    expect(builders).toEqual(['src/mcp/pipeline/api-chain.ts']);
  });
});
