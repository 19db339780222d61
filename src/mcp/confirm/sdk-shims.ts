/**
 * What the bundled binary hands the MCP SDK in place of its Node shims
 * (`@modelcontextprotocol/server/_shims`, aliased by scripts/build-bin.ts): the same two names,
 * with the answer validator as the SDK's default JSON Schema validator. The SDK builds its
 * default only for a server given none (ours always gets ANSWER_VALIDATOR), yet importing its
 * shims evaluates Ajv; through this module the binary carries no Ajv at all. Tests that run
 * the sources use the SDK's own shims.
 */
export { default as process } from 'node:process';
export { AnswerValidator as DefaultJsonSchemaValidator } from './answers.js';
