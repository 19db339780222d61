import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../src/sandbox/index.js';
import { SANDBOX_BIN, spawnTracked } from '../../scripts/harness/processes.js';

function run(args: string[]) {
  const child = spawnTracked(process.execPath, [SANDBOX_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return { child, stderr: () => stderr };
}

describe('docs/sandbox.md: when ready the binary prints exactly one line on stdout, a JSON object with base_url', () => {
  it('--port 0 picks a free port and serves the API there', async () => {
    const { child } = run(['--port', '0', '--leads', '50', '--seed', '7']);
    try {
      const lines = createInterface({ input: child.stdout });
      const [first] = (await once(lines, 'line')) as [string];
      const ready = JSON.parse(first);
      expect(Object.keys(ready)).toEqual(['base_url']);
      expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const me = await fetch(`${ready.base_url}/v1/me`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.admin}` } });
      expect(me.status).toBe(200);
      let more = '';
      child.stdout.on('data', (d) => (more += d));
      await new Promise((r) => setTimeout(r, 100));
      expect(more).toBe('');
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it.each([[['--port', 'abc']], [['--rate-limits', 'maybe']], [['--faults', 'explode=1']], [['--unknown-flag']]])(
    'bad flags %j exit 2 with a message on stderr and nothing on stdout',
    async (args) => {
      const { child, stderr } = run(args);
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const [code] = await once(child, 'exit');
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(stderr()).toMatch(/reply-inbox-sandbox: /);
    },
  );
});
