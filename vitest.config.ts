import { defineConfig } from 'vitest/config';

/**
 * One project per kind of test, in two lanes; `npm test` runs them all, `npx vitest run --project unit` one.
 *
 * The fast lane (`npm run test:fast`): unit, contract, client and tools run the TypeScript
 * sources in this process, with no build and no child process (their setup makes starting
 * one fail), and time only through the project's Clock.
 *
 * The process lane: e2e, reliability, cluster, ship and registry run the built binaries:
 * their global setup builds dist/ first, only when a source is newer than the last build
 * (scripts/build-stamp.ts), and their setup ends whatever a test or a file started and left
 * running (scripts/harness/processes.ts). cluster needs redis-server on the PATH; registry
 * needs the npm registry (npx fetches the MCP Inspector, and Node 22 for the conformance suite).
 */
const limits = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

// Setup paths start with './': vitest looks for a bare one ('test/…') as a package first, some 4 ms each at every run.

/**
 * The fast lane's projects. Their files share one module graph per worker (isolate: false):
 * loading the SDK, zod and the server once per worker instead of once per file is most of
 * the lane's time saved. A test that changes a module's state puts it back.
 *
 * One worker per core ('100%'): vitest 4.1's default in a run is one fewer, a single worker on two
 * cores, which uses one core at most and less beside another busy process. The four projects
 * share this maxWorkers, as projects of one group (sequence.groupOrder) must.
 */
const inProcess = (name: string, include: string[]) => ({
  test: { ...limits, name, include, isolate: false, maxWorkers: '100%', setupFiles: ['./test/setup/no-processes.ts'] },
});

const fromDist = (name: string, include: string[], exclude: string[] = []) => ({
  test: {
    ...limits,
    name,
    include,
    exclude,
    // After the fast lane, with vitest's default count of workers: projects of one group must share a maxWorkers.
    sequence: { groupOrder: 1 },
    setupFiles: ['./test/helpers/process-hooks.ts'],
    globalSetup: ['./test/setup/build-if-stale.ts'],
  },
});

/** They fetch from the npm registry (or npm's cache): npx of the Inspector, npm install of the packed tarball. */
const REGISTRY = ['test/ship/conformance.test.ts', 'test/ship/inspector.test.ts', 'test/ship/pack.test.ts', 'test/ship/readme-clients.test.ts'];

export default defineConfig({
  test: {
    // The root's global setup runs whatever projects are selected: it marks the run's processes.
    globalSetup: ['./test/setup/process-mark.ts'],
    projects: [
      inProcess('unit', ['test/unit/**/*.test.ts']),
      inProcess('contract', ['test/contract/**/*.test.ts']),
      inProcess('client', ['test/client/**/*.test.ts']),
      // Each area's tool tests, beside its tools (tools/<area>.test.ts): the server the binary
      // builds, from the sources, in this process (test/helpers/in-process.ts).
      inProcess('tools', ['tools/**/*.test.ts']),
      fromDist('e2e', ['test/e2e/**/*.test.ts']),
      fromDist('reliability', ['test/reliability/**/*.test.ts']),
      fromDist('cluster', ['test/cluster/**/*.test.ts']),
      fromDist('ship', ['test/ship/**/*.test.ts'], REGISTRY),
      fromDist('registry', REGISTRY),
    ],
  },
});
