import { describe, expect, it } from 'vitest';
import { sandboxBehindRelay } from '../helpers/behind-relay.js';
import { client, sandbox } from './helpers.js';

const env = sandboxBehindRelay(() => sandbox());

const path = { workspace: 'acme', lead_id: 'lead_abc00001', attachment_id: 'att_abc00001' };

/** The next download is answered 200 with this body and Content-Type, as a file named data.json. */
function serveFile(body: string, contentType: string): void {
  env.relay.override = (req) =>
    (req.url ?? '').includes('/download') ? { status: 200, body, contentType, headers: { 'content-disposition': 'attachment; filename="data.json"' } } : null;
}

describe('Attachment download: the file is bytes whatever Content-Type it is served with', () => {
  for (const [what, body] of [
    ['valid JSON', '{"rows":[1,2,3],"note":"a file, not an answer"}'],
    ['text that is not JSON', '{not json at all'],
  ] as const) {
    it(`a file of ${what} served as application/json is carried byte for byte, with its name and type`, async () => {
      serveFile(body, 'application/json; charset=utf-8');
      const { client: c } = client(env.sb, { baseUrl: env.relay.url, discoverLimits: false });
      const r = await c.download(path);
      await c.close();
      expect(Buffer.isBuffer(r.data)).toBe(true);
      expect(r.data.equals(Buffer.from(body))).toBe(true);
      expect(r.filename).toBe('data.json');
      expect(r.contentType).toBe('application/json; charset=utf-8');
    });
  }
});
