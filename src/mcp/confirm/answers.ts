import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

/**
 * What checks a person's answer to a question (elicitation), one per process: the SDK's
 * default builds an Ajv instance per server, some 18 KiB of every HTTP session's memory,
 * for a check that runs only when a client answers a confirmation.
 */
export const ANSWER_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * The form a confirmation asks for: none, the accept or decline is the answer. One object for
 * the process, because the shared validator keeps every schema object it has compiled.
 */
export const NO_FIELDS = Object.freeze({ type: 'object', properties: Object.freeze({}) }) as { type: 'object'; properties: Record<string, never> };
