import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient, type RowCallOptions } from '../../src/client/index.js';
import { type EndpointName, endpoint } from '../../src/api/endpoints.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

describe('one deadline per tool call: every API call it makes gets what is left of it', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ leads: 700 });
  });
  afterAll(async () => {
    await sb?.close();
  });

  /** The server over a client that records each call's deadline while the server's clock moves 20 s a call. */
  async function recorded(toolDeadlineMs: number, maxResultBytes = 2_000_000) {
    const real = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
    let t = 1_000_000;
    const deadlines: { name: string; deadlineMs: number | undefined }[] = [];
    const api = {
      call: async (name: EndpointName, req: RowCallOptions) => {
        deadlines.push({ name, deadlineMs: req.deadlineMs });
        const r = await real.request(endpoint(name), req);
        t += 20_000;
        return r;
      },
      me: (o?: Parameters<ReplyInboxClient['me']>[0]) => real.me(o),
    };
    // A budget that holds 600 leads: the read goes on page after page (a cut ends it at the page that is cut).
    const server = await inProcessServer(sb, { api, now: () => t, toolDeadlineMs, maxResultBytes });
    const close = async () => {
      await server.close();
      await real.close();
    };
    return { ...server, deadlines, close };
  }

  it('a read of three pages: the second page has 20 s less, the third 40 s less, and so on', async () => {
    const s = await recorded(100_000);
    try {
      const r = (await s.client.callTool({ name: 'list_leads', arguments: { max_items: 600 } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      // Three pages, each with 20 s less than the one before.
      const given = s.deadlines.map((d) => d.deadlineMs);
      expect(given.slice(0, 3)).toEqual([100_000, 80_000, 60_000]);
      expect(given).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  it('a read cut to the default budget: its one page, then the request for the cursor where the cut fell, 20 s less', async () => {
    const s = await recorded(100_000, 24_576);
    try {
      const r = (await s.client.callTool({ name: 'list_leads', arguments: { max_items: 600 } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toHaveProperty('left_out');
      expect(s.deadlines.map((d) => d.deadlineMs)).toEqual([100_000, 80_000]);
    } finally {
      await s.close();
    }
  });

  it('a page the read would ask for after its deadline is not sent: the read answers what it has, marked partial for timeout', async () => {
    const s = await recorded(30_000);
    try {
      const r = (await s.client.callTool({ name: 'list_leads', arguments: { max_items: 600 } })) as CallToolResult;
      expect(s.deadlines.map((d) => d.deadlineMs)).toEqual([30_000, 10_000]);
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ pages_read: 2, partial: true, partial_reason: 'timeout', has_more: true });
    } finally {
      await s.close();
    }
  });
});
