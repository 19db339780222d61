import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { createLogger } from '../../src/log.js';
import { LISTED_LEADS, LISTED_WORKSPACES } from '../../src/mcp/resources-prompts/resources/kit.js';
import { InboxServer } from '../../src/mcp/server.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

// Issue 30 item 11: with --sandbox and no --workspace, resources/list named only
// inbox://capabilities, because the admin key reaches three workspaces and the listing
// named the default workspace's resources only.

type Listed = Awaited<ReturnType<Client['listResources']>>['resources'];

const PER_WORKSPACE = ['leads', 'playbook', 'members', 'lead-tags'];
const uris = (listed: Listed) => listed.map((r) => r.uri);
const leadUris = (listed: Listed, ws: string) => uris(listed).filter((u) => new RegExp(`^inbox://${ws}/leads/lead_\\w+$`).test(u));

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ leads: 60 });
});
afterAll(async () => sb?.close());

/** The key's reach and each workspace's newest leads, read from the API with that key. */
async function apiOf(key: string) {
  const get = async (path: string) => (await fetch(new URL(path, sb.baseUrl), { headers: { authorization: `Bearer ${key}` } })).json() as Promise<any>;
  const workspaces: string[] = (await get('/v1/me')).workspaces.map((w: { id: string }) => w.id);
  const newest = async (ws: string) =>
    ((await get(`/v1/workspaces/${ws}/leads?limit=${LISTED_LEADS}`)).data as { id: string }[]).map((l) => `inbox://${ws}/leads/${l.id}`);
  return { workspaces, newest };
}

async function listedWith(key: string, defaultWorkspace?: string): Promise<Listed> {
  const api = new ReplyInboxClient({ apiKey: key, baseUrl: sb.baseUrl, logLevel: 'silent' });
  const s = await inProcessServer(sb, { api, defaultWorkspace });
  try {
    return (await s.client.listResources()).resources;
  } finally {
    await s.close();
    await api.close();
  }
}

describe('resources/list for a key that reaches several workspaces and no --workspace: each workspace its key reaches', () => {
  let listed: Listed;
  let reach: Awaited<ReturnType<typeof apiOf>>;
  beforeAll(async () => {
    reach = await apiOf(sb.keys.admin);
    listed = await listedWith(sb.keys.admin);
  });

  it('the admin key reaches more than one workspace (the case of the issue)', () => {
    expect(reach.workspaces.length).toBeGreaterThan(1);
  });

  it("names every reachable workspace's newest leads, playbook, members and lead tags, and the capabilities", () => {
    const expected = ['inbox://capabilities', ...reach.workspaces.flatMap((ws) => PER_WORKSPACE.map((r) => `inbox://${ws}/${r}`))];
    expect(
      uris(listed)
        .filter((u) => !/\/leads\/lead_/.test(u))
        .sort(),
    ).toEqual(expected.sort());
  });

  it("names each workspace's newest leads as the API gives them", async () => {
    for (const ws of reach.workspaces) expect(leadUris(listed, ws), ws).toEqual(await reach.newest(ws));
    expect(reach.workspaces.some((ws) => leadUris(listed, ws).length > 0)).toBe(true);
  });
});

describe('resources/list with a default workspace names that workspace only', () => {
  it('--workspace acme with the admin key: acme alone', async () => {
    const listed = await listedWith(sb.keys.admin, 'acme');
    const named = new Set(
      uris(listed)
        .map((u) => /^inbox:\/\/([a-z0-9-]+)\//.exec(u)?.[1])
        .filter((w) => w !== undefined),
    );
    expect([...named]).toEqual(['acme']);
  });

  it('a key that reaches one workspace (rep) lists it without --workspace', async () => {
    const listed = await listedWith(sb.keys.rep);
    expect(uris(listed)).toEqual(expect.arrayContaining(PER_WORKSPACE.map((r) => `inbox://acme/${r}`)));
    expect(leadUris(listed, 'acme')).toEqual(await (await apiOf(sb.keys.rep)).newest('acme'));
  });
});

describe(`a key reaching more than ${LISTED_WORKSPACES} workspaces lists the first ${LISTED_WORKSPACES}, one page of leads each`, () => {
  it('never a page per workspace beyond the bound', async () => {
    const reach = Array.from({ length: LISTED_WORKSPACES + 3 }, (_, i) => `ws-${i}`);
    const calls: string[] = [];
    const api = {
      call: async (name: string, o: { path?: { workspace?: string } }) => {
        calls.push(`${name} ${o.path?.workspace}`);
        return { data: { object: 'list', data: [{ object: 'lead', id: `lead_${o.path?.workspace?.replace('-', '')}aaaaaaaa` }], has_more: false } };
      },
      me: async () => ({ data: { scopes: ['leads:read', 'workspaces:read', 'members:read'], workspaces: reach.map((id) => ({ id })) } }),
    };
    const server = new InboxServer({ name: 't', version: '0', tools: [], api: api as never, selection: { readOnly: false }, log: createLogger('t', 'silent') });
    await server.refresh();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.mcp.connect(a);
    const client = new Client({ name: 'c', version: '0' });
    await client.connect(b);
    try {
      const listed = (await client.listResources()).resources;
      const first = reach.slice(0, LISTED_WORKSPACES);
      expect(calls.sort()).toEqual(first.map((ws) => `list_leads ${ws}`).sort());
      for (const ws of first) expect(uris(listed)).toContain(`inbox://${ws}/leads`);
      for (const ws of reach.slice(LISTED_WORKSPACES)) expect(uris(listed).some((u) => u.startsWith(`inbox://${ws}/`))).toBe(false);
    } finally {
      await client.close();
    }
  });
});
