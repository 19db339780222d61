import { describe, expect, it } from 'vitest';
import { launchFlags } from '../../src/cli/v8-flags.js';

const YOUNG = '--semi-space-growth-factor=1';
const LIFTOFF = '--liftoff-only';

describe('The V8 flags the launcher sets (src/cli/v8-flags.ts)', () => {
  it('over stdio: the young generation kept at its starting size, and WebAssembly on the baseline compiler only', () => {
    expect(launchFlags(['--workspace', 'acme'], {}, '')).toEqual([YOUNG, LIFTOFF]);
  });

  it("serving HTTP (the flag in either form, or REPLY_INBOX_HTTP): V8's own young generation, WebAssembly still on the baseline compiler", () => {
    for (const [argv, env] of [
      [['--http', '127.0.0.1:8080'], {}],
      [['--http=:8080'], {}],
      [[], { REPLY_INBOX_HTTP: ':8080' }],
    ] as const) {
      expect(launchFlags(argv, env, '')).toEqual([LIFTOFF]);
    }
  });

  it('a young-generation flag given to node, on its command line or in NODE_OPTIONS, is left to rule', () => {
    for (const given of ['--max-semi-space-size=16', '--max_semi_space_size=16', '--min-semi-space-size=2', '--semi-space-growth-factor=2']) {
      expect(launchFlags([], {}, `--enable-source-maps ${given}`)).toEqual([LIFTOFF]);
    }
  });

  it('a WebAssembly tiering flag given to node is left to rule, and a lookalike is not one', () => {
    for (const given of ['--no-liftoff', '--liftoff', '--no-liftoff-only', '--wasm-tier-up', '--no-wasm-dynamic-tiering']) {
      expect(launchFlags([], {}, given)).toEqual([YOUNG]);
    }
    expect(launchFlags([], {}, '--liftoffs --experimental-wasm-liftoff')).toEqual([YOUNG, LIFTOFF]);
  });
});
