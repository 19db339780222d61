import type Bottleneck from 'bottleneck';

/**
 * What this patch relies on in bottleneck: how a script is called (__scriptFn__, and runScript,
 * whose recovery compares the bare codes), and the scripts that raise those codes. A test
 * fails when the version or any of them changes.
 */
export const SCRIPT_ERRORS_PATCH = {
  version: '2.19.5',
  targets: [
    { module: 'bottleneck/lib/IORedisConnection.js', member: '__scriptFn__', fingerprint: '39d5a7e2719194f3' },
    { module: 'bottleneck/lib/RedisDatastore.js', member: 'runScript', fingerprint: 'e021a696109faed3' },
  ],
  scripts: { 'validate_keys.lua': 'c9ed978619b11605', 'validate_client.lua': 'e9d6299238867d62' },
} as const;

type Callback = (err: Error | null, replies: unknown) => void;
type ScriptFn = (...args: unknown[]) => unknown;
interface ScriptRunner {
  __scriptFn__(name: string): ScriptFn;
}

/** The codes bottleneck's Lua scripts raise and its recovery compares against, bare. */
const BOTTLENECK_CODE = /^ERR ((?:SETTINGS_KEY_NOT_FOUND|UNKNOWN_CLIENT|OVERWEIGHT:)[\s\S]*)$/;

/**
 * Redis 7 prefixes a script's bare error reply with `ERR `, so bottleneck 2.19.5 no longer
 * recognises `SETTINGS_KEY_NOT_FOUND` (re-create the limiter's settings) nor `UNKNOWN_CLIENT`
 * (register again) and fails every call for good after a FLUSHALL, a restart or an expiry
 * (its issues #205, #212, #219). Stripping the prefix from those codes, on our connection
 * only, lets bottleneck's own recovery run; every other error is passed on untouched.
 */
export function restoreScriptErrors(connection: Bottleneck.IORedisConnection, onLost?: (limiterId: string) => void): void {
  const runner = connection as unknown as ScriptRunner;
  const original = runner.__scriptFn__.bind(runner);
  runner.__scriptFn__ = (name: string): ScriptFn => {
    const fn = original(name);
    return (...args: unknown[]) => {
      const cb = args.pop() as Callback;
      // bottleneck passes the number of keys, then its keys, the first being b_<id>_settings.
      const settingsKey = String(args[1] ?? '');
      return fn(...args, (err: Error | null, replies: unknown) => {
        const e = err ? bare(err) : null;
        if (e?.message === 'SETTINGS_KEY_NOT_FOUND' && settingsKey.startsWith('b_') && settingsKey.endsWith('_settings')) {
          onLost?.(settingsKey.slice(2, -'_settings'.length));
        }
        cb(e, replies);
      });
    };
  };
}

function bare(err: Error): Error {
  const m = BOTTLENECK_CODE.exec(err.message ?? '');
  return m ? new Error(m[1]) : err;
}
