import { afterEach, describe, expect, it, vi } from 'vitest';

// The server instructions state the figures the server enforces; they are built from the
// constants, so a changed constant changes the instructions. Each test changes the constants
// (a mocked module) and reads the instructions afresh.

async function instructionsWith(mocks: { enums?: object; shared?: object; budget?: object }): Promise<string> {
  vi.resetModules();
  if (mocks.enums) vi.doMock('../../src/api/enums.js', async (orig) => ({ ...(await orig<object>()), ...mocks.enums }));
  if (mocks.shared) vi.doMock('../../src/mcp/declare/shared-args.js', async (orig) => ({ ...(await orig<object>()), ...mocks.shared }));
  if (mocks.budget) vi.doMock('../../src/mcp/view/result-budget.js', async (orig) => ({ ...(await orig<object>()), ...mocks.budget }));
  return (await import('../../src/mcp/instructions.js')).SERVER_INSTRUCTIONS;
}

afterEach(() => {
  vi.doUnmock('../../src/api/enums.js');
  vi.doUnmock('../../src/mcp/declare/shared-args.js');
  vi.doUnmock('../../src/mcp/view/result-budget.js');
  vi.resetModules();
});

describe('SERVER_INSTRUCTIONS take their figures from the constants', () => {
  it('states the figures of today: 120/60/10/30 per minute, 1-200 (50), 1,000, 10 minutes, 24 KB', async () => {
    const text = await instructionsWith({});
    expect(text).toContain('read 120/min, write 60/min, upstream 10/min, thread 30/min');
    expect(text).toContain('1-200 (default 50, list_leads 20)');
    expect(text).toContain('max_items (up to 1,000)');
    expect(text).toContain('in the last 10 minutes');
    expect(text).toContain('about 24 KB');
  });

  it('say what the duplicate guard covers: which tools, per key across sessions, what is identical, for how long, and what ends a hold', async () => {
    const text = await instructionsWith({});
    expect(text).toContain('create_task and create_note are not idempotent; the server guards them per API key, across all its sessions');
    expect(text).toContain('same tool, workspace and arguments, in any order');
    expect(text).toMatch(
      /refused unsent \(duplicate_unsettled\) while it is in flight and afterwards, until list_tasks or list_notes for that lead has been read, or for 10 minutes/,
    );
  });

  it('follows RATE_LIMITS and LIMITS', async () => {
    const text = await instructionsWith({
      enums: { RATE_LIMITS: { read: 7, write: 8, upstream: 9, thread: 11, max_concurrent: 4 }, LIMITS: { page_default: 25, page_max: 100 } },
    });
    expect(text).toContain('read 7/min, write 8/min, upstream 9/min, thread 11/min');
    expect(text).toContain('1-100 (default 25, list_leads 20)');
  });

  it('follows MAX_ITEMS_BOUND, DUPLICATE_WINDOW_MS and DEFAULT_MAX_RESULT_BYTES', async () => {
    const text = await instructionsWith({ shared: { MAX_ITEMS_BOUND: 2_500, DUPLICATE_WINDOW_MS: 5 * 60_000 }, budget: { DEFAULT_MAX_RESULT_BYTES: 32_768 } });
    expect(text).toContain('max_items (up to 2,500)');
    expect(text).toContain('in the last 5 minutes');
    expect(text).toContain('has been read, or for 5 minutes');
    expect(text).toContain('about 32 KB');
  });
});
