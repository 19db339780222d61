import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type HttpBinary, startHttpBinary } from '../../scripts/harness/http.js';

/**
 * Issue 30 item 11: bound to 0.0.0.0 the binary printed {"url":"http://0.0.0.0:…/mcp"}, an
 * address no client connects to. It prints a URL a client can use as it stands (a loopback
 * name the Host check lets through, else an allowed host name) and says it listens on all
 * interfaces.
 */
const TOKEN = 'wildcard-test-token-0123456789';

describe('--http 0.0.0.0:PORT with loopback names allowed', () => {
  let bin: HttpBinary;
  let printed: { url: string; listening: string };
  beforeAll(async () => {
    bin = await startHttpBinary(['--sandbox', '--http', '0.0.0.0:0', '--allowed-hosts', 'localhost,127.0.0.1', '--http-token', TOKEN]);
    printed = JSON.parse(bin.stdoutLine) as typeof printed;
  });
  afterAll(async () => bin?.stop());

  it('prints http://127.0.0.1:PORT/mcp and says it listens on all interfaces', () => {
    const port = new URL(printed.url).port;
    expect(printed.url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(printed.listening).toBe(`all interfaces (0.0.0.0:${port})`);
  });

  it('a client given the printed URL as it stands lists the tools', async () => {
    const client = new Client({ name: 'wildcard', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(printed.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_leads');
    } finally {
      await client.close();
    }
  });
});

describe('--http 0.0.0.0:PORT with only a public host name allowed', () => {
  it('prints that name with the port: a loopback URL would be refused by the Host check', async () => {
    const bin = await startHttpBinary(['--sandbox', '--http', '0.0.0.0:0', '--allowed-hosts', 'mcp.example.com', '--http-token', TOKEN]);
    try {
      const printed = JSON.parse(bin.stdoutLine) as { url: string; listening: string };
      const port = new URL(printed.url).port;
      expect(printed).toEqual({ url: `http://mcp.example.com:${port}/mcp`, listening: `all interfaces (0.0.0.0:${port})` });
    } finally {
      await bin.stop();
    }
  });
});

describe('a loopback bind prints its own address', () => {
  it('{"url":"http://127.0.0.1:PORT/mcp","listening":"127.0.0.1:PORT"}', async () => {
    const bin = await startHttpBinary(['--sandbox', '--http-token', TOKEN]);
    try {
      const port = new URL(bin.url).port;
      expect(JSON.parse(bin.stdoutLine)).toEqual({ url: `http://127.0.0.1:${port}/mcp`, listening: `127.0.0.1:${port}` });
    } finally {
      await bin.stop();
    }
  });
});
