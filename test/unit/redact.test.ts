import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { mayHoldSecret, redactDeep, redactSecrets, registerSecret } from '../../src/redact.js';

const KEY = 'rik_live_abcd1234_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7';
const CORE = 'Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7';
const TOKEN = 'tok/en+with=odd&chars-0123456789';

/** Every byte of the text percent-encoded, as an over-eager encoder does. */
const percentAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** Every character as a JSON \\u escape, as a JSON encoder may write it. */
const jsonEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** Whether a secret can still be read out of the text: any case, percent- or JSON-escaped. */
function readable(text: string, secret: string): boolean {
  const plain = text
    .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return plain.toLowerCase().includes(secret.toLowerCase());
}

const variants = (s: string) => ({
  plain: s,
  'URL-encoded': encodeURIComponent(s),
  'every byte percent-encoded': percentAll(s),
  'after an underscore': `x_${s}`,
  'upper-cased': s.toUpperCase(),
  'lower-cased': s.toLowerCase(),
  'with characters appended': `${s}abc123`,
  'JSON-escaped': jsonEscaped(s),
  'inside a URL': `https://evil.example/?k=${encodeURIComponent(s)}&x=1`,
});

describe("Secrets: the server's own known secrets are redacted wherever and however they appear", () => {
  for (const [what, secret, core] of [
    ['the API key', KEY, CORE],
    ['the --http-token', TOKEN, TOKEN],
  ] as const) {
    for (const [form, text] of Object.entries(variants(secret))) {
      it(`${what}, ${form}`, () => {
        const release = registerSecret(secret);
        try {
          const msg = `echo: ${text} end`;
          expect(mayHoldSecret(msg)).toBe(true);
          const out = redactSecrets(msg);
          expect(readable(out, core), out).toBe(false);
          expect(out).toContain('echo: ');
          expect(out).toContain(' end');
        } finally {
          release();
        }
      });
    }
  }

  it('a key-shaped string the server does not hold is still cut to its public handle, after an underscore or upper-cased', () => {
    const other = 'rik_live_zzzz9999_abcdefghijABCDEFGHIJ0123456789ab';
    for (const text of [`x_${other}`, other.toUpperCase(), `${other}zz`, other.replace(/_/g, '%5F')]) {
      const out = redactSecrets(text);
      expect(readable(out, 'abcdefghijABCDEFGHIJ0123456789ab'), out).toBe(false);
      expect(out.toLowerCase()).toContain('zzzz9999');
    }
  });

  it('a secret is forgotten when its last holder lets go, and kept while one still holds it', () => {
    const a = registerSecret(TOKEN);
    const b = registerSecret(TOKEN);
    a();
    expect(redactSecrets(TOKEN)).toBe('…');
    b();
    expect(redactSecrets(TOKEN)).toBe(TOKEN);
  });

  it('redactDeep cleans every string and key of a JSON value, and leaves other values alone', () => {
    const release = registerSecret(KEY);
    try {
      const out = redactDeep({ a: [`x_${KEY}`, 3, null, true], [CORE.toUpperCase()]: { b: `${CORE}z` } });
      expect(readable(JSON.stringify(out), CORE)).toBe(false);
      expect((out as { a: unknown[] }).a.slice(1)).toEqual([3, null, true]);
    } finally {
      release();
    }
  });

  it('a log line carrying a secret in any field, in any form, is redacted', () => {
    const release = registerSecret(KEY);
    const lines: string[] = [];
    const dest = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    try {
      const log = createLogger('redact-test', 'info', dest as never);
      log.info({ body: { echoed: CORE.toUpperCase() }, url: `/x?k=${percentAll(KEY)}` }, `message x_${KEY}`);
      log.error({ err: new Error(`failed for ${KEY}zz`) }, 'boom');
      const text = lines.join('');
      expect(text).toContain('message');
      expect(text).toContain('failed for');
      expect(readable(text, CORE), text).toBe(false);
    } finally {
      release();
    }
  });
});
