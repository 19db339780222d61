import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayHoldSecret, redactSecrets, registerSecret } from '../../src/redact.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';

const KEY = 'rik_live_abcd1234_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7';
const CORE = 'Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7';
const TOKEN = 'tok/en+with=odd&chars-0123456789';

const twice = (s: string) => encodeURIComponent(encodeURIComponent(s));
const twiceEveryByte = (s: string) => [...Buffer.from(s)].map((b) => `%25${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** The secret inside other text, base64-encoded: its place in the text sets its alignment in the encoding. */
const b64 = (s: string, before: string, url = false) => Buffer.from(`${before}${s}"}`).toString(url ? 'base64url' : 'base64');

/** Run with the secret known to redaction, and forget it after. */
function holding(secret: string, run: () => void): void {
  const release = registerSecret(secret);
  try {
    run();
  } finally {
    release();
  }
}

/** The text, URL-decoded twice, and each of its words base64- and base64url-decoded: wherever a secret could be read back. */
function decodings(out: string): string {
  const words = out.split(/[ …]/).filter((w) => w.length > 8);
  return [
    out,
    decodeURIComponent(decodeURIComponent(out.replace(/%(?![0-9a-f]{2})/gi, ''))),
    ...words.flatMap((w) => [Buffer.from(w, 'base64').toString('latin1'), Buffer.from(w, 'base64url').toString('latin1')]),
  ].join('\n');
}

describe('Secrets in the forms the second attack found: twice URL-encoded and base64', () => {
  for (const [what, secret, core] of [
    ['the API key', KEY, CORE],
    ['the --http-token', TOKEN, TOKEN],
  ] as const) {
    const forms: Record<string, string> = {
      'URL-encoded twice': twice(secret),
      'every byte percent-encoded twice': twiceEveryByte(secret),
      'base64, aligned': b64(secret, ''),
      'base64, one byte in': b64(secret, '{'),
      'base64, two bytes in': b64(secret, '{"'),
      'base64url, in a JSON header': b64(secret, '{"authorization":"Bearer ', true),
    };
    for (const [form, text] of Object.entries(forms)) {
      it(`${what}, ${form}`, () =>
        holding(secret, () => {
          const msg = `echo: ${text} end`;
          expect(mayHoldSecret(msg)).toBe(true);
          const out = redactSecrets(msg);
          expect(decodings(out).includes(core), out).toBe(false);
          expect(out).toMatch(/^echo: .* end$/);
        }));
    }
  }

  it('ordinary base64 (an image, a signature) is left alone', () =>
    holding(KEY, () => {
      const image = Buffer.from('GIF89a ordinary picture bytes, nothing secret in here at all').toString('base64');
      expect(redactSecrets(image)).toBe(image);
    }));
});

describe('A key split by HTML tags in an HTML-only body is redacted after the HTML becomes text', () => {
  let sb: Sandbox;
  let s: Awaited<ReturnType<typeof inProcessServer>>;
  beforeAll(async () => {
    sb = await sandbox({ leads: 5 });
    s = await inProcessServer(sb);
  });
  afterAll(async () => {
    await s?.close();
    await sb?.close();
  });

  it("the server's own key, and a key-shaped string it does not hold, come out redacted from get_conversation", async () => {
    const key = sb.keys.admin;
    const cut = (k: string) => `${k.slice(0, 22)}<b>${k.slice(22, 30)}</b><span>${k.slice(30)}</span>`;
    const lead = sb.store.leads.inGroup('acme')[0]!;
    const msg = sb.store.conversation(lead).at(-1)!;
    Object.assign(msg, { body_text: null, body_html: `<p>My key is ${cut(key)} and another ${cut(KEY)}&#46;</p>` });
    const r = (await s.client.callTool({ name: 'get_conversation', arguments: { lead_id: lead.id, message_id: msg.id } })) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    const all = `${text}\n${JSON.stringify(r.structuredContent)}`;
    expect(all).toContain('My key is');
    expect(all).not.toContain(key.slice(-32));
    expect(all).not.toContain(CORE);
    expect(all).toContain('rik_live_abcd1234_…');
  });
});

describe('With a hundred keys known (an HTTP server of a hundred callers), each is still found in every form', () => {
  const cores = Array.from({ length: 100 }, (_, i) => `41${i.toString().padStart(3, '0')}${'Zq9'.repeat(9)}`);
  const percentEach = (s: string, prefix: string) => [...s].map((c) => `${prefix}${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  const forms = (core: string) => [
    `said ${core} here`,
    `said ${core.toUpperCase()}`,
    `q=${percentEach(core, '%')}`,
    `q=${percentEach(core, '%25').toUpperCase()}`,
    `"${percentEach(core, '\\u00')}"`,
    // Mixed forms, and an escape just before the key that eats its first characters when decoded ("%25" + "41…").
    `q=${core.slice(0, 10)}${percentEach(core.slice(10, 20), '%')}${core.slice(20)}`,
    `a%25${core}`,
    `a\\u00${core}`,
    b64(core, 'x'),
    b64(core, 'xy', true),
  ];

  it('mayHoldSecret says so for every form of every one of them, and redaction removes each', () => {
    const releases = cores.map((c) => registerSecret(`rik_live_abcd1234_${c}`));
    try {
      for (const core of [cores[0]!, cores[57]!, cores[99]!])
        for (const text of forms(core)) {
          expect(mayHoldSecret(text), text).toBe(true);
          const out = redactSecrets(text);
          expect(out, text).not.toBe(text);
          expect(out.toLowerCase(), text).not.toContain(core.slice(5).toLowerCase());
        }
      expect(mayHoldSecret('an ordinary answer: lead_01 replied %41 at 10:00, \\u0041 and base64 aGVsbG8gd29ybGQ=')).toBe(false);
    } finally {
      for (const r of releases) r();
    }
  });
});
