import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FAST_YIELD_PATCH } from '../../src/client/limiter/fast-yield.js';
import { DRAIN_SWEEP } from '../../src/client/limiter/redis/drain-sweep.js';
import { SCRIPT_ERRORS_PATCH } from '../../src/client/limiter/redis/script-errors-patch.js';
import { UNSUBSCRIBE_PATCH } from '../../src/client/limiter/redis/unsubscribe-patch.js';

const require = createRequire(import.meta.url);
const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The source of one prototype member of a bottleneck module, as the patch saw it. */
function memberSource(module: string, member: string): string {
  const exported = require(module) as { prototype: Record<string, unknown> };
  const fn = exported.prototype[member];
  if (typeof fn !== 'function') throw new Error(`${module} has no ${member} any more`);
  return fn.toString();
}

describe('every patch of bottleneck internals names what it relies on, and that is still what is installed', () => {
  for (const [name, patch] of [
    ['fast-yield.ts', FAST_YIELD_PATCH],
    ['redis/script-errors-patch.ts', SCRIPT_ERRORS_PATCH],
    ['redis/unsubscribe-patch.ts', UNSUBSCRIBE_PATCH],
    ['redis/drain-sweep.ts', DRAIN_SWEEP],
  ] as const) {
    it(`${name}: the installed bottleneck is the version the patch was written for`, () => {
      expect((require('bottleneck/package.json') as { version: string }).version).toBe(patch.version);
    });
    for (const t of patch.targets) {
      it(`${name}: ${t.module} ${t.member} is unchanged`, () => {
        expect(fingerprint(memberSource(t.module, t.member))).toBe(t.fingerprint);
      });
    }
  }

  it('redis/script-errors-patch.ts: the Lua scripts that raise SETTINGS_KEY_NOT_FOUND and UNKNOWN_CLIENT are unchanged', () => {
    const lua = require('bottleneck/lib/lua.json') as Record<string, string>;
    for (const [script, expected] of Object.entries(SCRIPT_ERRORS_PATCH.scripts)) expect(fingerprint(lua[script] ?? ''), script).toBe(expected);
    const raising = Object.keys(lua).filter((k) => /SETTINGS_KEY_NOT_FOUND|UNKNOWN_CLIENT/.test(lua[k]!));
    expect(raising.sort()).toEqual(Object.keys(SCRIPT_ERRORS_PATCH.scripts).sort());
  });
});
