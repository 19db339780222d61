import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BodyOf,
  type Endpoint,
  ENDPOINTS,
  type EndpointName,
  type PathOf,
  type QueryOf,
  type ToolEndpointName,
  endpoint,
  pathIdsOf,
} from '../../src/api/endpoints.js';
import type { Me, ResourceOf } from '../../src/api/resources.js';
import type { ItemOf, ReturnOf } from '../../src/api/returns.js';
import type { RequestOf } from '../../src/client/call-types.js';
import { defineTool } from '../../src/mcp/declare/define.js';
import { listOf } from '../../src/mcp/declare/outputs.js';
import type { HandlerOf, HandlerTable } from '../../src/sandbox/context.js';
import { HANDLER_TABLE } from '../../src/sandbox/handlers/index.js';

// The endpoint table is constant data (`as const satisfies`), so what it says is checked by the
// compiler too. The @ts-expect-error lines are the tests of that: `npm run typecheck` fails if
// any of them compiles, i.e. if a typo'd endpoint, a missing handler or a wrong body field
// were accepted.

describe('path ids are derived from the path', () => {
  it('{workspace} is the workspace and {x_id} an id of kind x, in path order', () => {
    expect(endpoint('download_attachment').pathIds).toEqual({ workspace: 'workspace', lead_id: 'lead', attachment_id: 'attachment' });
    expect(Object.keys(endpoint('download_attachment').pathIds)).toEqual(['workspace', 'lead_id', 'attachment_id']);
    expect(endpoint('get_slots').pathIds).toEqual({ workspace: 'workspace', event_type_id: 'event_type' });
    expect(endpoint('get_me').pathIds).toEqual({});
  });

  it('every row names exactly the placeholders of its path', () => {
    for (const e of ENDPOINTS) expect(Object.keys(e.pathIds), e.name).toEqual([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  });

  it('a placeholder that names no id kind is refused', () => {
    expect(() => pathIdsOf('/v1/workspaces/{workspace}/things/{thing_id}')).toThrow('{thing_id} names no id kind');
    expect(() => pathIdsOf('/v1/workspaces/{lead}')).toThrow('{lead} names no id kind');
  });
});

describe('a tool names only a real tool endpoint', () => {
  it('a typo, or an endpoint that is no tool, does not compile', () => {
    const typo = () =>
      // @ts-expect-error 'list_leadz' is no endpoint of the table
      defineTool({ endpoint: 'list_leadz', title: 'x', description: 'x', output: listOf('lead') });
    const notATool = () =>
      // @ts-expect-error the mobile-session endpoints are not tools
      defineTool({ endpoint: 'create_mobile_session', title: 'x', description: 'x', output: listOf('lead') });
    // At run time the table refuses them as well.
    expect(typo).toThrow('unknown endpoint list_leadz');
    expect(notATool).toThrow('create_mobile_session is not a tool endpoint');
    expectTypeOf<'list_leads'>().toExtend<ToolEndpointName>();
    expectTypeOf<'create_mobile_session'>().toExtend<EndpointName>();
  });
});

describe('the sandbox handlers are typed by the table', () => {
  it('every endpoint has its handler; one missing does not compile', () => {
    const complete: HandlerTable = HANDLER_TABLE;
    const { create_note: _gone, ...rest } = HANDLER_TABLE;
    // @ts-expect-error create_note's handler is missing
    const missing: HandlerTable = rest;
    expect(Object.keys(complete).sort()).toEqual(ENDPOINTS.map((e) => e.name).sort());
    expect(Object.keys(missing)).not.toContain('create_note');
  });

  it("a handler's body, query and path ids are its endpoint's, as the schemas leave them", () => {
    expectTypeOf<BodyOf<'create_note'>>().toEqualTypeOf<{ lead_id: string; body: string }>();
    expectTypeOf<BodyOf<'set_priority'>>().toEqualTypeOf<{ lead_ids: string[]; priority: boolean }>();
    expectTypeOf<BodyOf<'delete_task'>>().toEqualTypeOf<undefined>();
    expectTypeOf<QueryOf<'list_notes'>['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<QueryOf<'get_conversation'>['order']>().toEqualTypeOf<'asc' | 'desc' | undefined>();
    expectTypeOf<PathOf<'update_task'>>().toEqualTypeOf<{ readonly workspace: string; readonly task_id: string }>();
    // @ts-expect-error create_note's body has no field `note`
    const wrongField: HandlerOf<'create_note'> = (ctx) => ({ body: ctx.body.note });
    // @ts-expect-error list_notes takes no `status` filter
    const wrongQuery: HandlerOf<'list_notes'> = (ctx) => ({ body: ctx.query.status });
    expect(typeof wrongField).toBe('function');
    expect(typeof wrongQuery).toBe('function');
  });
});

describe("the client's call is typed by the row", () => {
  it('an answer is typed as its return schema reads it: a read its resource, a list a page of it, a write its effects, a file bytes', () => {
    expectTypeOf<ReturnOf<'get_lead'>>().toEqualTypeOf<ResourceOf<'lead'>>();
    expectTypeOf<ReturnOf<'list_leads'>['data'][number]>().toEqualTypeOf<ResourceOf<'lead'>>();
    expectTypeOf<ReturnOf<'list_leads'>['next_cursor']>().toEqualTypeOf<string | null>();
    expectTypeOf<ItemOf<'list_tasks'>['status']>().toEqualTypeOf<string>();
    expectTypeOf<ReturnOf<'get_me'>>().toEqualTypeOf<Me>();
    expectTypeOf<ReturnOf<'create_note'>['effects']['provider_writes']>().toEqualTypeOf<unknown[]>();
    expectTypeOf<ReturnOf<'render_template'>['ready_to_send']>().toEqualTypeOf<boolean>();
    expectTypeOf<ReturnOf<'download_attachment'>>().toEqualTypeOf<Buffer>();
    expectTypeOf<ReturnOf<'get_lead'>['object']>().toEqualTypeOf<'lead'>();
  });

  it("path, query and body are the row's: a missing path id, an unknown filter or a wrong body field does not compile", () => {
    expectTypeOf<RequestOf<'get_lead'>['path']>().toEqualTypeOf<PathOf<'get_lead'>>();
    expectTypeOf<RequestOf<'list_workspaces'>>().toExtend<{ path?: unknown }>();
    const ok: RequestOf<'list_leads'> = { path: { workspace: 'acme' }, query: { status: ['interested'], limit: 5 } };
    // @ts-expect-error get_lead needs its lead_id
    const noLead: RequestOf<'get_lead'> = { path: { workspace: 'acme' } };
    // @ts-expect-error list_notes takes no status
    const badQuery: RequestOf<'list_notes'> = { path: { workspace: 'acme' }, query: { status: ['open'] } };
    // @ts-expect-error a note body has no pinned
    const badBody: RequestOf<'create_note'> = { path: { workspace: 'acme' }, body: { lead_id: 'lead_x', body: 'hi', pinned: true } };
    expect([ok, noLead, badQuery, badBody]).toHaveLength(4);
  });

  it("a completed endpoint's name is a name of the table", () => {
    expectTypeOf<Endpoint['name']>().toEqualTypeOf<EndpointName>();
    expectTypeOf(endpoint('get_slots').name).toEqualTypeOf<'get_slots'>();
    // @ts-expect-error 'get_slot' is no endpoint of the table
    expect(() => endpoint('get_slot')).toThrow('unknown endpoint get_slot');
  });
});
