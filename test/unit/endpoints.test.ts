import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ENDPOINTS, TOOL_ENDPOINTS, bucketsFor, endpoint } from '../../src/api/endpoints.js';
import { HANDLERS } from '../../src/sandbox/handlers/index.js';

/** The spec is the team's reference, not part of the repository: CI names it, a user's clone skips the cross-check. */
const SPEC_PATH = process.env.REPLY_INBOX_SPEC;
if (!SPEC_PATH) console.warn('endpoints.test.ts: REPLY_INBOX_SPEC is not set, so the cross-check against the spec is skipped (CI sets it).');
const SPEC = SPEC_PATH ? readFileSync(SPEC_PATH, 'utf8') : '';

/** Every "METHOD /v1/..." (or "METHOD .../...") row of the spec's Endpoints tables and prose. */
function specEndpoints(): Set<string> {
  const found = new Set<string>();
  const endpointsPart = SPEC.slice(SPEC.indexOf('## Endpoints'), SPEC.indexOf('## Authentication'));
  for (const m of endpointsPart.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/v1\/[^\s|]*|\.\.\.\/[^\s|]*)/g)) {
    let path = m[2]!.replace(/\{ws\}/g, '{workspace}');
    if (path.startsWith('.../')) path = `/v1/workspaces/{workspace}/leads/{lead_id}${path.slice('.../leads/{lead}'.length)}`;
    path = path.replace('{lead}', '{lead_id}').replace('{attachment}', '{attachment_id}');
    found.add(`${m[1]} ${path}`);
  }
  return found;
}

/** Path placeholders named by kind in our table; the spec writes {id} for several. */
function normalise(path: string): string {
  return path.replace(/\{(task_id|meeting_id|event_type_id|template_id)\}/g, '{id}');
}

describe.skipIf(!SPEC_PATH)('the endpoint table lists every endpoint of the spec (REPLY_INBOX_SPEC)', () => {
  it('has each endpoint the spec names, and no other', () => {
    const spec = specEndpoints();
    const ours = new Set(ENDPOINTS.map((e) => `${e.method} ${normalise(e.path)}`));
    expect([...spec].filter((s) => !ours.has(s))).toEqual([]);
    expect([...ours].filter((s) => !spec.has(s))).toEqual([]);
    expect(spec.size).toBe(ENDPOINTS.length);
  });
});

describe('the endpoint table', () => {
  it('every endpoint is a tool but the two mobile-session calls, and names are unique', () => {
    expect(ENDPOINTS.filter((e) => !TOOL_ENDPOINTS.includes(e)).map((e) => e.name)).toEqual(['create_mobile_session', 'revoke_mobile_session']);
    expect(new Set(ENDPOINTS.map((e) => e.name)).size).toBe(ENDPOINTS.length);
  });

  it('has a sandbox handler for every endpoint', () => {
    expect(ENDPOINTS.map((e) => e.name).filter((n) => !HANDLERS[n])).toEqual([]);
  });

  it('moves include=counts and include=sdr_notes to the upstream bucket', () => {
    expect(bucketsFor(endpoint('get_workspace'), {})).toEqual(['read']);
    expect(bucketsFor(endpoint('get_workspace'), { include: 'counts' })).toEqual(['upstream']);
    expect(bucketsFor(endpoint('get_workspace'), { include: ['sdr_notes'] })).toEqual(['read']);
    expect(bucketsFor(endpoint('get_lead'), { include: 'sdr_notes' })).toEqual(['upstream']);
  });

  it('marks task create and note create as not idempotent, and every GET as idempotent', () => {
    expect(
      ENDPOINTS.filter((e) => !e.idempotent)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['create_mobile_session', 'create_note', 'create_task']);
  });
});
