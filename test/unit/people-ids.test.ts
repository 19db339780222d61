import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { takeArgs } from '../../src/mcp/pipeline/take-args.js';
import { UserIds } from '../../src/mcp/pipeline/user-ids.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { useInProcessServer } from '../helpers/in-process.js';

// People ids both ways: a user id where a member id is taken is read as that member (the rule of
// docs/spec-gaps.md), or refused naming list_members; list_members shows both forms.

const server = useInProcessServer();
const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  return { isError: r.isError === true, structured: r.structuredContent as any, text, next: text.split('\n').slice(1).join('\n') };
};
const tool = (name: string) => ALL_TOOLS.find((t) => t.name === name)!;
const ids = (r: { structured: { data: { id: string }[] } }) => r.structured.data.map((x) => x.id);

/** The owner's pair in each workspace, as GET /v1/me gives it. */
const learned = (memberIdInAcme: string) => {
  const u = new UserIds();
  u.learn({ owner: { id: 'usr_ada' }, workspaces: [{ id: 'acme', member_id: memberIdInAcme }] });
  return u;
};

describe('a user id where a member id is taken', () => {
  it('list_leads assignee_id ["usr_ben"] answers as ["usr_ben_acme"], and says so', async () => {
    const user = await call('list_leads', { assignee_id: ['usr_ben'], limit: 50 });
    const member = await call('list_leads', { assignee_id: ['usr_ben_acme'], limit: 50 });
    expect(user.isError).toBe(false);
    expect(ids(user).length).toBeGreaterThan(0);
    expect(ids(user)).toEqual(ids(member));
    const notice = 'assignee_id usr_ben is a user id: taken as its member id in acme, usr_ben_acme.';
    expect(user.structured.notices).toEqual([notice]);
    expect(user.text).toContain(`\nNote: ${notice}`);
  });

  it('set_assignees member_ids ["usr_mia"] assigns usr_mia_acme', async () => {
    const lead = server.sb.store.leads.inGroup('acme')[3]!;
    const r = await call('set_assignees', { lead_id: lead.id, member_ids: ['usr_mia'] });
    expect(r.isError).toBe(false);
    expect(server.sb.store.leads.get(lead.id)!.assignments.map((a) => a.member_id)).toEqual(['usr_mia_acme']);
  });

  it('get_insights_summary member_id "usr_ben" reads usr_ben_acme', async () => {
    const user = await call('get_insights_summary', { member_id: 'usr_ben' });
    expect(user.isError).toBe(false);
    expect(user.structured.notices).toEqual(['member_id usr_ben is a user id: taken as its member id in acme, usr_ben_acme.']);
  });

  it('every argument that takes a member id reads a user id, found from the schemas', () => {
    const u = learned('usr_ada_acme');
    const found: string[] = [];
    for (const t of ALL_TOOLS) {
      for (const name of Object.keys(t.input.shape)) {
        const taken = takeArgs(t, { [name]: 'usr_ben' }, { ids: u, workspace: 'acme' });
        const v = (taken.args as Record<string, unknown>)[name];
        if (taken.notices.length) {
          found.push(`${t.name}.${name}`);
          expect([v, (v as string[])[0]]).toContain('usr_ben_acme');
        }
      }
    }
    expect(found).toEqual(expect.arrayContaining(['list_leads.assignee_id', 'set_assignees.member_ids', 'get_insights_summary.member_id']));
    // Where a user id is taken (tasks, notes, meetings), a user id stays as it is.
    expect(found.filter((f) => /^(list_tasks|create_task|update_task|list_notes|list_meetings)\./.test(f))).toEqual([]);
  });

  it('the owner maps for sure; another user is refused naming list_members when the rule is not confirmed', () => {
    const u = learned('usr_7f3a9');
    expect(u.memberOf('acme', 'usr_ada')).toBe('usr_7f3a9');
    expect(() => takeArgs(tool('list_leads'), { assignee_id: ['usr_ben'] }, { ids: u, workspace: 'acme' })).toThrow(
      "Argument 'assignee_id': usr_ben is a user id (one part), and list_leads takes a member id (two parts) of workspace acme, which this server cannot tell for it. list_members shows each member's id.",
    );
  });

  it('a value that is no id at all: the next step names the argument and list_members, not assignee_id.0', async () => {
    const r = await call('list_leads', { assignee_id: ['raj'] });
    expect(r.isError).toBe(true);
    expect(r.next).toBe('Pass a valid assignee_id; list_members gives real ones.');
  });
});

describe('a member id where a user id is taken', () => {
  it('list_notes author_id given as a member id answers as its user id, and says so in both forms', async () => {
    const author = (await call('list_notes', { limit: 1 })).structured.data[0].author_id as string;
    const member = await call('list_notes', { author_id: `${author}_acme`, limit: 50 });
    const user = await call('list_notes', { author_id: author, limit: 50 });
    expect(member.isError).toBe(false);
    expect(ids(member).length).toBeGreaterThan(0);
    expect(ids(member)).toEqual(ids(user));
    const notice = `author_id ${author}_acme is a member id: taken as its user id, ${author}.`;
    expect(member.structured.notices).toEqual([notice]);
    expect(member.text).toContain(`\nNote: ${notice}`);
    expect(user.structured.notices).toBeUndefined();
  });

  it('a read over several pages says it once', async () => {
    const r = await call('list_tasks', { assignee_id: 'usr_ben_acme', limit: 2, max_items: 6 });
    expect(r.isError).toBe(false);
    expect(r.structured.notices).toEqual(['assignee_id usr_ben_acme is a member id: taken as its user id, usr_ben.']);
  });
});

describe('list_members shows both forms of each member', () => {
  it('each member has its member id (id) and its user id (user_id), in the text and in structuredContent', async () => {
    const r = await call('list_members', {});
    const rows = r.structured.data as { id: string; user_id?: string }[];
    expect(rows.length).toBeGreaterThan(3);
    for (const m of rows) {
      expect(m.user_id).toBe(m.id.replace(/_acme$/, ''));
      expect(r.text).toContain(`"id":"${m.id}","user_id":"${m.user_id}"`);
    }
    expect(tool('list_members').output.safeParse(r.structured).success).toBe(true);
  });

  it('a member id the rule does not confirm gets no guessed user id; the owner keeps its own', () => {
    const u = learned('usr_7f3a9');
    expect(
      u.withUserIds('acme', [
        { object: 'member', id: 'usr_7f3a9' },
        { object: 'member', id: 'usr_ben_acme' },
      ]),
    ).toEqual([
      { object: 'member', id: 'usr_7f3a9', user_id: 'usr_ada' },
      { object: 'member', id: 'usr_ben_acme' },
    ]);
  });
});

describe('where a user id is demanded, the error names a tool whose output shows it', () => {
  it('list_tasks assignee_id usr_raj_globex names list_members, and list_members does show usr_raj', async () => {
    const r = await call('list_tasks', { assignee_id: 'usr_raj_globex' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("list_members (each member's user_id)");
    expect(r.next).toBe('Pass a valid assignee_id; list_members gives real ones.');
    const members = await call('list_members', {});
    expect(members.structured.data.map((m: { user_id?: string }) => m.user_id)).toContain('usr_raj');
  });

  it('list_notes author_id that is no id: the next step names list_members', async () => {
    const r = await call('list_notes', { author_id: 'ben' });
    expect(r.isError).toBe(true);
    expect(r.next).toBe('Pass a valid author_id; list_members gives real ones.');
  });
});
