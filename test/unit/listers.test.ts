import { describe, expect, it } from 'vitest';
import { TOOL_ENDPOINTS } from '../../src/api/endpoints.js';
import { listerOf, listersOf } from '../../src/api/listers.js';
import { ApiError } from '../../src/client/index.js';
import { errorBody } from '../../src/mcp/errors.js';

describe('an error\'s lister ("list_leads gives real ones") is derived from the endpoint table, never kept by hand', () => {
  it('every id argument of every tool has one lister, a tool that returns a list', () => {
    const listers = listersOf();
    const lists = new Set<string>(TOOL_ENDPOINTS.filter((e) => e.returns === 'list').map((e) => e.name));
    const idArguments = new Set(
      TOOL_ENDPOINTS.flatMap((e) => [
        ...Object.keys(e.pathIds),
        ...Object.entries(e.query)
          .filter(([, p]) => p.kind === 'id' || p.kind === 'ids')
          .map(([n]) => n),
      ]),
    );
    for (const name of idArguments) expect(lists.has(listers.get(name) ?? ''), name).toBe(true);
  });

  it('each kind is listed by its own list, by the list that carries it, or by the list of the ids written alike', () => {
    const listers = Object.fromEntries(listersOf());
    expect(listers).toMatchObject({
      lead_id: 'list_leads', // not list_replies, whose path takes a lead
      member_ids: 'list_members', // not get_assignees, which lists one lead's members
      attachment_id: 'get_conversation', // attachments ride in its messages
      assignee_id: 'list_members', // a user id (create_task) or a member id (list_leads): both usr_
      folder_id: 'list_template_folders', // a query parameter named otherwise than its kind
      tag_ids: 'list_lead_tags', // a body field
      workspace: 'list_workspaces',
    });
    expect(listerOf('lead_ids')).toBe('list_leads'); // the batch argument tools add, by the <kind>_ids convention
    expect(listerOf('limit')).toBeUndefined();
  });

  it('a row taken out of the table takes its lister with it: no hand-kept list lags behind', () => {
    const without = listersOf(TOOL_ENDPOINTS.filter((e) => e.name !== 'list_template_folders'));
    expect(without.get('folder_id')).toBeUndefined();
    expect(without.get('template_id')).toBe('list_templates');
  });

  it('the next step of an invalid id names the derived lister', () => {
    const err = new ApiError({ status: 400, code: 'invalid_id', message: 'bad', endpoint: 'list_templates', param: 'folder_id' });
    expect(errorBody(err, 'list_templates').next_step).toBe('Pass a valid folder_id; list_template_folders gives real ones.');
  });
});
