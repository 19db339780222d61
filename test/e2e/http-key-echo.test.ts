import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { hashSecret } from '../../src/sandbox/auth.js';
import { TEST_NOW } from '../../scripts/harness/sandbox.js';
import { type HttpBinary, connectHttp, startHttpBinary } from '../../scripts/harness/http.js';

/**
 * HTTP key mode: the server first meets a key when a client sends it, and checks it with GET
 * /v1/me before building anything for it. An API whose /v1/me echoes the key (its name and
 * description here) must not put the secret into get_me's answer, which is served from that
 * first read's cache.
 */
let sb: Sandbox;
let bin: HttpBinary;
let key: string;
let core: string;
/** Forms the echo takes: the bare secret, the key and the secret in base64. */
let forms: string[];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent' });
  key = sb.control.issueKey('rep');
  core = key.split('_')[3]!;
  forms = [core, Buffer.from(key).toString('base64'), Buffer.from(core).toString('base64')];
  const rec = sb.store.keysByHash.get(hashSecret(key))!;
  rec.name = `echo ${core}`;
  rec.description = `${forms[1]} ${forms[2]}`;
  bin = await startHttpBinary(['--base-url', sb.baseUrl]);
});
afterAll(async () => {
  await bin?.stop('SIGKILL');
  await sb?.close();
});

describe('Secrets: a key is known to the redaction before any answer made with it is read (HTTP key mode)', () => {
  it("get_me, right after the key's first initialize, shows neither the bare secret nor its base64 forms", async () => {
    const c = await connectHttp(bin.url, `Bearer ${key}`);
    const r = await c.callTool({ name: 'get_me', arguments: {} });
    await c.close();
    const text = JSON.stringify(r);
    // The capture is real: the echoed fields came through, cleaned.
    expect(r.isError).toBeFalsy();
    expect(text).toContain('echo ');
    for (const form of forms) {
      expect(text).not.toContain(form);
      expect(bin.stderr()).not.toContain(form);
    }
  });
});
