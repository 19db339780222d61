/**
 * Packages the bundled binary loads at run time instead of carrying inside its chunks:
 * build-bin.ts leaves them out of the bundle (`external`), mcpb.ts packs them beside it.
 * ioredis is loaded by path, with --redis only.
 */
export const RUNTIME_PACKAGES: readonly string[] = ['ioredis'];
