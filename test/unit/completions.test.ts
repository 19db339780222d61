import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/index.js';
import type { InboxAccess } from '../../src/mcp/resources-prompts/access.js';
import {
  MAX_COMPLETIONS,
  completeAssignee,
  completeFrom,
  completeLead,
  completeTemplate,
  completeWorkspace,
} from '../../src/mcp/resources-prompts/completions.js';
import { standInApi } from '../helpers/stand-in-api.js';

type Call = { name: string; path?: Record<string, string>; query?: Record<string, unknown> };

/** An access whose API answers each list from a table and records what was asked. */
function access(opts: { lists?: Record<string, Record<string, unknown>[]>; scopes?: string[] | null; fail?: Error; defaultWorkspace?: string } = {}) {
  const calls: Call[] = [];
  const failures: unknown[] = [];
  const a: InboxAccess = {
    api: standInApi(async (name, req) => {
      calls.push({ name, path: req.path, query: req.query });
      if (opts.fail) throw opts.fail;
      const limit = Number(req.query?.limit ?? 50);
      return { data: { object: 'list', data: (opts.lists?.[name] ?? []).slice(0, limit), has_more: false, next_cursor: null } };
    }),
    workspaces: () => ['acme', 'acme-eu', 'globex'],
    defaultWorkspace: () => ('defaultWorkspace' in opts ? opts.defaultWorkspace : 'acme'),
    scopes: () => (opts.scopes === undefined ? null : opts.scopes && new Set(opts.scopes)),
    failed: (err) => void failures.push(err),
  };
  return { a, calls, failures };
}
const leads = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `lead_${i < 10 ? 'ab' : 'cd'}${i}` }));

describe('{workspace}: the slugs the key reaches, by typed prefix, case-insensitive', () => {
  it('all, by prefix, none', () => {
    const { a } = access();
    expect(completeWorkspace(a)('')).toEqual(['acme', 'acme-eu', 'globex']);
    expect(completeWorkspace(a)(undefined)).toEqual(['acme', 'acme-eu', 'globex']);
    expect(completeWorkspace(a)('ACME-')).toEqual(['acme-eu']);
    expect(completeWorkspace(a)('x')).toEqual([]);
  });
});

describe("{lead}: nothing typed is the newest; a lead_ prefix scans the newest ids; anything else is the API's q; at most 20", () => {
  it('nothing typed: the newest 20, one page of 20 asked for', async () => {
    const { a, calls } = access({ lists: { list_leads: leads(30) } });
    expect(await completeLead(a)('')).toEqual(leads(20).map((l) => l.id));
    expect(calls).toEqual([{ name: 'list_leads', path: { workspace: 'acme' }, query: { limit: 20 } }]);
  });

  it('a name: q with the text as typed (cut to 160 characters), limit 20', async () => {
    const { a, calls } = access({ lists: { list_leads: leads(3) } });
    expect(await completeLead(a)('  Mallory ')).toEqual(leads(3).map((l) => l.id));
    expect(calls[0]!.query).toEqual({ q: 'Mallory', limit: 20 });
    await completeLead(a)('x'.repeat(300));
    expect((calls[1]!.query!.q as string).length).toBe(160);
  });

  it('an id prefix: the newest 200 ids filtered by it, at most 20', async () => {
    const { a, calls } = access({ lists: { list_leads: leads(40) } });
    expect(await completeLead(a)('LEAD_AB')).toEqual(leads(10).map((l) => l.id));
    expect(calls[0]!.query).toEqual({ limit: 200 });
    expect(await completeLead(a)('lead_')).toHaveLength(MAX_COMPLETIONS);
  });

  it('the workspace chosen in the request wins over the default; no workspace at all completes nothing without a request', async () => {
    const { a, calls } = access({ lists: { list_leads: leads(1) } });
    await completeLead(a)('', { arguments: { workspace: 'globex' } });
    expect(calls[0]!.path).toEqual({ workspace: 'globex' });
    const none = access({ defaultWorkspace: undefined });
    expect(await completeLead(none.a)('')).toEqual([]);
    expect(await completeLead(a)('', { arguments: { workspace: 'Not A Slug' } })).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(none.calls).toEqual([]);
  });

  it('without leads:read nothing is asked; a failed look-up completes nothing and is reported, never thrown', async () => {
    const noScope = access({ scopes: ['members:read'] });
    expect(await completeLead(noScope.a)('a')).toEqual([]);
    expect(noScope.calls).toEqual([]);
    const err = new ApiError({ status: 429, code: 'rate_limited', message: 'slow down', endpoint: 'list_leads' });
    const failing = access({ fail: err });
    expect(await completeLead(failing.a)('a')).toEqual([]);
    expect(failing.failures).toEqual([err]);
  });
});

describe('Prompt arguments: templates by id or name, assignees by id, name or email (and "none"), fixed choices', () => {
  it('templates: id or name prefix, case-insensitive', async () => {
    const { a } = access({
      lists: {
        list_templates: [
          { id: 'tpl_a1', name: 'Pricing reply' },
          { id: 'tpl_b2', name: 'Intro' },
          { id: 'tpl_pr3', name: 'Other' },
        ],
      },
    });
    expect(await completeTemplate(a)('pr')).toEqual(['tpl_a1']);
    expect(await completeTemplate(a)('TPL_PR')).toEqual(['tpl_pr3']);
    expect(await completeTemplate(a)('')).toEqual(['tpl_a1', 'tpl_b2', 'tpl_pr3']);
  });

  it('assignees: members by id, name or email, then "none"; without members:read only "none"', async () => {
    const members = [
      { id: 'usr_ben_acme', name: 'Ben Rep', email: 'ben@acme.example' },
      { id: 'usr_raj_acme', name: null, email: 'raj@acme.example' },
    ];
    const { a } = access({ lists: { list_members: members } });
    expect(await completeAssignee(a)('ben')).toEqual(['usr_ben_acme']);
    expect(await completeAssignee(a)('raj@')).toEqual(['usr_raj_acme']);
    expect(await completeAssignee(a)('')).toEqual(['usr_ben_acme', 'usr_raj_acme', 'none']);
    expect(await completeAssignee(a)('n')).toEqual(['none']);
    const noScope = access({ scopes: ['leads:read'], lists: { list_members: members } });
    expect(await completeAssignee(noScope.a)('')).toEqual(['none']);
    expect(noScope.calls).toEqual([]);
  });

  it('fixed choices by prefix', () => {
    expect(completeFrom(['7d', '30d', '366d'])('3')).toEqual(['30d', '366d']);
    expect(completeFrom(['7d', '30d'])(undefined)).toEqual(['7d', '30d']);
  });
});
