import { describe, expect, it } from 'vitest';
import { ApiError, DEFAULT_BODY_LIMITS } from '../../src/client/index.js';
import { sandboxBehindGateway } from '../helpers/behind-gateway.js';
import { streamBody } from '../../scripts/harness/gateway.js';
import { client, sandbox } from './helpers.js';

const MB = 1024 * 1024;
const HUGE = 200 * MB;
const env = sandboxBehindGateway(() => sandbox());
/** Bytes the fake API managed to hand over before the client hung up, per request. */
let sent: Promise<number> | null = null;

const download = { workspace: 'acme', lead_id: 'lead_big0001', attachment_id: 'att_big00001' };
const OCTET = { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="big.bin"' };

/** The fake API answers the next request to a path containing `match` with a body of `total` bytes. */
function serve(match: string, total: number, head: Record<string, string>, fill?: string): void {
  env.gw.answer = (req, res) => {
    if (!(req.url ?? '').includes(match)) return false;
    req.resume();
    sent = streamBody(res, total, head, fill);
    return true;
  };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('Limits: attachment download is bounded at 25 MB; larger files are refused without being read', () => {
  it("the limits are the spec's 25 MB for attachments and 16 MiB for JSON answers", () => {
    expect(DEFAULT_BODY_LIMITS).toEqual({ binary: 25 * MB, json: 16 * MB });
  });

  it('a 200 MB attachment sent without a length (chunked) is refused once 25 MB have passed, not read to the end', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, discoverLimits: false });
    serve('/download', HUGE, OCTET);
    const err = await failure(c.call('download_attachment', { path: download }));
    await c.close();
    expect(err.code).toBe('response_too_large');
    expect(err.message).toMatch(/larger than the 25\.0 MiB \(25 MB\) attachment limit/);
    expect(err.message).toMatch(/nothing was downloaded/);
    const handed = await sent!;
    expect(handed).toBeLessThan(25 * MB + 16 * MB);
    expect(handed).toBeGreaterThan(25 * MB);
  });

  it('a 200 MB attachment whose content-length says so is refused before its body is read', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, discoverLimits: false });
    serve('/download', HUGE, { ...OCTET, 'content-length': String(HUGE) });
    const err = await failure(c.call('download_attachment', { path: download }));
    await c.close();
    expect(err.code).toBe('response_too_large');
    expect(err.message).toContain('declared 200.0 MiB');
    expect(await sent!).toBeLessThan(16 * MB);
  });

  it('a file of exactly the limit is delivered whole; one byte more is refused', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, discoverLimits: false, maxBodyBytes: { binary: 100_000 } });
    serve('/download', 100_000, OCTET, 'a');
    const r = await c.download(download);
    expect(r.data.length).toBe(100_000);
    expect(r.filename).toBe('big.bin');
    serve('/download', 100_001, OCTET, 'a');
    expect((await failure(c.download(download))).code).toBe('response_too_large');
    await c.close();
  });
});

describe('Limits: a JSON answer from the API is bounded too (16 MiB)', () => {
  it('a 200 MB JSON answer is refused once 16 MiB have passed, and the error says what happened', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, discoverLimits: false });
    serve('/leads', HUGE, { 'content-type': 'application/json' }, ' ');
    const err = await failure(c.call('list_leads', { path: { workspace: 'acme' } }));
    await c.close();
    expect(err.code).toBe('response_too_large');
    expect(err.message).toMatch(/larger than the client's 16\.0 MiB limit for JSON answers/);
    expect(await sent!).toBeLessThan(16 * MB + 16 * MB);
  });

  it('a read refused as too large is not retried (the same answer would come again)', async () => {
    const { client: c } = client(env.sb, { baseUrl: env.gw.url, discoverLimits: false, maxBodyBytes: { json: 1000 } });
    const before = env.gw.requests.length;
    serve('/members', 5000, { 'content-type': 'application/json' }, ' ');
    const err = await failure(c.call('list_members', { path: { workspace: 'acme' } }));
    await c.close();
    expect(err.code).toBe('response_too_large');
    expect(env.gw.requests.length - before).toBe(1);
  });
});
