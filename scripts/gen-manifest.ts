import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolDef } from '../src/mcp/declare/define.js';
import { ALL_TOOLS } from '../tools/index.js';

/**
 * The parts of manifest.json that the code already says: the version (package.json) and
 * the tool list (the registry). Everything else in the manifest is written by hand.
 * `npm run manifest` rewrites them; test/ship/manifest.test.ts fails when they drift.
 */

export const MANIFEST = fileURLToPath(new URL('../manifest.json', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../package.json', import.meta.url));

export interface ManifestTool {
  name: string;
  description: string;
}

/** The title is the one-line, human-facing name a host shows before installing; the long description is for models. */
export function manifestTools(tools: readonly ToolDef[]): ManifestTool[] {
  return tools.map((t) => ({ name: t.name, description: t.title }));
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { version: string }).version;
}

export function syncedManifest(manifest: Record<string, unknown>, tools: readonly ToolDef[]): Record<string, unknown> {
  return { ...manifest, version: packageVersion(), tools: manifestTools(tools) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const current = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, unknown>;
  writeFileSync(MANIFEST, `${JSON.stringify(syncedManifest(current, ALL_TOOLS), null, 2)}\n`);
  process.stderr.write(`wrote ${MANIFEST}\n`);
}
