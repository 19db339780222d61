import { describe, expect, it } from 'vitest';
import { ANSWER_VALIDATOR, NO_FIELDS } from '../../src/mcp/confirm/answers.js';

describe('The answer validator: what checks a person’s answer to a confirmation', () => {
  const check = ANSWER_VALIDATOR.getValidator(NO_FIELDS);

  it('accepts an object, with or without fields a client added (properties: {} allows them)', () => {
    expect(check({})).toEqual({ valid: true, data: {}, errorMessage: undefined });
    expect(check({ note: 'ok' })).toEqual({ valid: true, data: { note: 'ok' }, errorMessage: undefined });
  });

  it('refuses anything that is not an object, saying so', () => {
    for (const bad of ['yes', 1, true, null, [], [{}]]) {
      expect(check(bad)).toEqual({ valid: false, data: undefined, errorMessage: 'the answer to a confirmation must be an object' });
    }
  });

  it('refuses to check a form with fields, which this server never asks, rather than pass it unchecked', () => {
    const withField = { type: 'object', properties: { reason: { type: 'string' } } } as const;
    expect(() => ANSWER_VALIDATOR.getValidator(withField)).toThrow(/only forms without fields/);
    expect(() => ANSWER_VALIDATOR.getValidator({ type: 'object', properties: {}, required: ['reason'] })).toThrow(/only forms without fields/);
    expect(() => ANSWER_VALIDATOR.getValidator({ type: 'string' })).toThrow(/only forms without fields/);
  });
});
