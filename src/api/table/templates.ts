import { bodies } from '../bodies.js';
import { ENUMS } from '../enums.js';
import { PAGING, p } from '../params.js';
import { WS, type EndpointRow } from './row.js';

/** The endpoint table, templates, folders and assets: the rows of src/api/endpoints.ts for this area. */
export const TEMPLATE_ROWS = [
  {
    name: 'list_templates',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/templates`,
    scope: 'templates:read',
    bucket: 'read',
    query: { ...PAGING, folder_id: p.id('template_folder'), visibility: p.oneOf(ENUMS.template_visibility) },
    returns: 'list',
    resource: 'template',
    errors: ['invalid_cursor', 'not_found'],
  },
  {
    name: 'get_template',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/templates/{template_id}`,
    scope: 'templates:read',
    bucket: 'read',
    returns: 'object',
    resource: 'template',
    errors: ['not_found'],
  },
  {
    // A POST, but a computation: nothing is written and nothing is sent.
    name: 'render_template',
    toolset: 'templates',
    method: 'POST',
    path: `${WS}/templates/{template_id}/render`,
    scope: 'templates:read',
    bucket: 'read',
    write: false,
    body: bodies.renderTemplate,
    returns: 'object',
    resource: 'rendered_template',
    errors: ['invalid_request', 'not_found', 'unprocessable'],
  },
  {
    name: 'list_template_folders',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/template_folders`,
    scope: 'templates:read',
    bucket: 'read',
    query: PAGING,
    returns: 'list',
    resource: 'template_folder',
    errors: ['invalid_cursor'],
  },
  {
    name: 'list_assets',
    toolset: 'templates',
    method: 'GET',
    path: `${WS}/assets`,
    scope: 'assets:read',
    bucket: 'read',
    query: { ...PAGING, kind: p.oneOf(ENUMS.asset_kind) },
    returns: 'list',
    resource: 'asset',
    errors: ['invalid_cursor'],
  },
] as const satisfies readonly EndpointRow[];
