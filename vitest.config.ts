import { defineConfig } from 'vitest/config';

/**
 * One project per kind of test; `npm test` runs them all, `npx vitest run --project unit` one.
 * unit, contract, client and tools run the TypeScript sources and start at once. The others run the
 * built binaries: their global setup builds dist/ first, only when a source is newer than
 * the last build (scripts/build-stamp.ts). cluster needs redis-server on the PATH; registry
 * needs the npm registry (npx fetches the MCP Inspector, and Node 22 for the conformance suite).
 */
const limits = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;
const shared = {
  ...limits,
  // Ends whatever a test or a file started and left running (scripts/harness/processes.ts).
  setupFiles: ['test/helpers/process-hooks.ts'],
} as const;

const fromSources = (name: string) => ({ test: { ...shared, name, include: [`test/${name}/**/*.test.ts`] } });

/**
 * Each area's tool tests, beside its tools (tools/<area>.test.ts): the server the binary builds,
 * from the sources, in this process (test/helpers/in-process.ts). They start no process, so no
 * process tracking is loaded for them.
 */
const tools = { test: { ...limits, name: 'tools', include: ['tools/**/*.test.ts'] } };

const fromDist = (name: string, include: string[], exclude: string[] = []) => ({
  test: { ...shared, name, include, exclude, globalSetup: ['test/setup/build-if-stale.ts'] },
});

/** They fetch from the npm registry (or npm's cache): npx of the Inspector, npm install of the packed tarball. */
const REGISTRY = ['test/ship/conformance.test.ts', 'test/ship/inspector.test.ts', 'test/ship/pack.test.ts', 'test/ship/readme-clients.test.ts'];

export default defineConfig({
  test: {
    // The root's global setup runs whatever projects are selected: it marks the run's processes.
    globalSetup: ['test/setup/process-mark.ts'],
    projects: [
      fromSources('unit'),
      fromSources('contract'),
      fromSources('client'),
      tools,
      fromDist('e2e', ['test/e2e/**/*.test.ts']),
      fromDist('reliability', ['test/reliability/**/*.test.ts']),
      fromDist('cluster', ['test/cluster/**/*.test.ts']),
      fromDist('ship', ['test/ship/**/*.test.ts'], REGISTRY),
      fromDist('registry', REGISTRY),
    ],
  },
});
