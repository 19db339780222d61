import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

/**
 * The form a confirmation asks for: none, the accept or decline is the answer. One frozen
 * object for the process; it is the only form this server ever sends.
 */
export const NO_FIELDS = Object.freeze({ type: 'object', properties: Object.freeze({}) }) as { type: 'object'; properties: Record<string, never> };

/** Whether a schema asks for nothing: an object form with no fields and none required. */
function asksNothing(schema: JsonSchemaType): boolean {
  const s = schema as { type?: unknown; properties?: Record<string, unknown>; required?: unknown[] };
  return s.type === 'object' && Object.keys(s.properties ?? {}).length === 0 && (s.required ?? []).length === 0;
}

/**
 * What checks a person's answer to a confirmation (elicitation), given to the SDK in place of
 * its Ajv validator. The server asks only forms without fields (NO_FIELDS), so an accepted
 * answer is valid when its content is an object: fields a client adds to it are ignored, as
 * JSON Schema's `properties: {}` allows. A form with fields is a mistake here, refused loudly
 * rather than checked by half. Ajv (with ajv-formats and fast-uri) is then never evaluated:
 * about 30 ms of every start, for one check that runs when a person answers (docs/performance.md).
 */
export class AnswerValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!asksNothing(schema)) throw new Error('reply-inbox-mcp asks only forms without fields: this answer cannot be checked');
    return (input: unknown) =>
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: 'the answer to a confirmation must be an object' };
  }
}

/** One per process: it keeps nothing. */
export const ANSWER_VALIDATOR = new AnswerValidator();
