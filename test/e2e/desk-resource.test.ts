import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIME, DESK_HTML_PATH, DESK_URI, UI_EXTENSION } from '../../src/mcp/desk/constants.js';
import { type McpSession, startMcp } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPS: ClientCapabilities = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME] } } } as ClientCapabilities;
const WITH_DESK = ['get_conversation', 'list_leads', 'render_template'];

describe('a host that renders MCP Apps gets the reply desk: _meta.ui.resourceUri on three tools and the ui:// resource', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(['--sandbox', '--workspace', 'acme'], {}, APPS);
  });
  afterAll(() => s?.close());

  it('render_template, get_conversation and list_leads name the desk in _meta.ui.resourceUri; no other tool has _meta', async () => {
    const { tools } = await s.client.listTools();
    const withMeta = tools.filter((t) => t._meta).map((t) => t.name);
    expect(withMeta.sort()).toEqual(WITH_DESK);
    for (const t of tools.filter((x) => x._meta)) expect((t._meta as { ui: { resourceUri: string } }).ui.resourceUri).toBe(DESK_URI);
  });

  it('the desk is listed and read as one HTML document of MIME type text/html;profile=mcp-app', async () => {
    const { resources } = await s.client.listResources();
    expect(resources.find((r) => r.uri === DESK_URI)).toMatchObject({ mimeType: APP_MIME });
    const read = await s.client.readResource({ uri: DESK_URI });
    expect(read.contents).toHaveLength(1);
    const c = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(c.mimeType).toBe(APP_MIME);
    expect(c.text).toBe(readFileSync(`${ROOT}${DESK_HTML_PATH}`, 'utf8'));
    expect(c.text.startsWith('<!doctype html>')).toBe(true);
  });

  it('the tool results are the same as for any client: the app is beside them, not in them', async () => {
    const r = await s.client.callTool({ name: 'list_leads', arguments: { limit: 2 } });
    expect(r.isError).toBeFalsy();
    expect(r._meta).toBeUndefined();
  });
});

describe('a client without the extension sees the server as it was', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(['--sandbox', '--workspace', 'acme']);
  });
  afterAll(() => s?.close());

  it('no tool carries _meta, the desk is not listed, and reading it is refused', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.filter((t) => t._meta)).toEqual([]);
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(DESK_URI);
    await expect(s.client.readResource({ uri: DESK_URI })).rejects.toThrow();
  });
});

describe('the built desk is one self-contained file: nothing to fetch, under 800 KB', () => {
  const html = readFileSync(`${ROOT}${DESK_HTML_PATH}`, 'utf8');

  it('is under 800 KB, and the README says its size within 10%', () => {
    const bytes = Buffer.byteLength(html);
    expect(bytes).toBeLessThan(800 * 1024);
    const said = /desk\.html`, about (\d+) KB\)/.exec(readFileSync(`${ROOT}README.md`, 'utf8'));
    expect(said, 'the README names the desk size').not.toBeNull();
    expect(Math.abs(Number(said![1]) * 1000 - bytes) / bytes).toBeLessThan(0.1);
  });

  it('has one inline script and one inline style, and no element that loads anything', () => {
    expect(html.match(/<script\b[^>]*>/gi)).toEqual(['<script type="module">']);
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
    expect(html.match(/<style\b[^>]*>/gi)).toEqual(['<style>']);
    // Booleans, so that a failure does not print 700 KB of script.
    expect(/<(link|img|iframe|object|embed|base)\b/i.test(html)).toBe(false);
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    expect(/@import|url\(/i.test(style)).toBe(false);
  });

  it('keeps no secret and has no way to send a request or store anything of its own', () => {
    // Everything goes through the host (postMessage): no key shape, no storage, no network API.
    for (const word of [
      'rik_',
      'rims_',
      'localStorage',
      'sessionStorage',
      'indexedDB',
      'document.cookie',
      'fetch(',
      'XMLHttpRequest',
      'EventSource',
      'sendBeacon',
    ])
      expect(html.includes(word), word).toBe(false);
  });
});
