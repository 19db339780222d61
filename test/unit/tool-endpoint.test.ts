import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type Endpoint, endpoint } from '../../src/api/endpoints.js';
import { ID_PREFIXES } from '../../src/api/ids.js';
import type { ToolContext } from '../../src/mcp/declare/tool-context.js';
import { Fence } from '../../src/mcp/view/fence.js';
import { standInApi } from '../helpers/stand-in-api.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { runPlain, runProjected } from '../../tools/support/project.js';
import { runWrite } from '../../tools/support/write.js';

// A tool's run calls the endpoint of its own tool, never one named again by hand: a tool copied
// to make another cannot keep calling the old endpoint. Each run is given a context whose
// endpoint is its tool's, and the endpoint name that reaches the API is recorded.

/** A path id of the right kind for each placeholder. */
function pathArgs(pathIds: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, kind] of Object.entries(pathIds)) {
    out[name] =
      kind === 'workspace' ? 'ws_main' : `${ID_PREFIXES[kind as keyof typeof ID_PREFIXES]}abc${kind === 'lead_tag' || kind === 'member' ? '_def' : ''}`;
  }
  return out;
}

/** A context for `e` whose API records the endpoint name it is called with, then stops. */
function recording(e: Endpoint, called: string[]): ToolContext {
  return {
    endpoint: e,
    // By a row's name or as the tool's own endpoint (callOwn): either way the name is recorded.
    api: standInApi(async (n) => {
      called.push(n);
      throw new Error('stop here');
    }),
    workspace: () => 'ws_main',
    signal: new AbortController().signal,
    clock: { now: () => 0 },
    fence: new Fence(),
    log: pino({ level: 'silent' }),
    progress: async () => undefined,
  };
}

describe.each(ALL_TOOLS.filter((t) => t.run !== undefined).map((t) => [t.name, t] as const))('tool %s', (name, tool) => {
  it('calls its own endpoint, the one its context names', async () => {
    const called: string[] = [];
    const args = { ...pathArgs(tool.endpoint.pathIds), event_type_id: 'evt_abc' };
    await expect(tool.run!(recording(tool.endpoint, called), args)).rejects.toThrow('stop here');
    expect(called).toEqual([name]);
  });
});

describe('the shared runners take the endpoint from the context, not from an argument', () => {
  it.each(['mark_read', 'mark_unread', 'create_task'] as const)('runWrite calls %s when the tool is that endpoint', async (name) => {
    const called: string[] = [];
    const e = endpoint(name);
    await expect(runWrite(['status'])(recording(e, called), pathArgs(e.pathIds))).rejects.toThrow('stop here');
    expect(called).toEqual([name]);
  });

  it.each(['list_leads', 'get_lead'] as const)('runProjected calls %s when the tool is that endpoint', async (name) => {
    const called: string[] = [];
    const e = endpoint(name);
    await expect(runProjected(recording(e, called), pathArgs(e.pathIds), 'lead')).rejects.toThrow('stop here');
    expect(called).toEqual([name]);
  });

  it('runPlain calls the context endpoint', async () => {
    const called: string[] = [];
    const e = endpoint('render_template');
    await expect(runPlain(recording(e, called), pathArgs(e.pathIds))).rejects.toThrow('stop here');
    expect(called).toEqual(['render_template']);
  });

  it('covers every tool with a run of its own (not an empty list)', () => {
    expect(ALL_TOOLS.filter((t) => t.run !== undefined).length).toBeGreaterThanOrEqual(18);
  });
});
