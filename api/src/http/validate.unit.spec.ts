import { DomainError } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from './validate';

const messageOf = (schema: z.ZodType, input: unknown): string => {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
  }
  throw new Error('expected a validation failure');
};

describe('parseInput', () => {
  const schema = z.object({
    title: z.string({ error: 'Title is required' }).min(1, 'Title is required'),
    count: z.number(),
  });

  it('returns the parsed value', () => {
    expect(parseInput(schema, { title: 'x', count: 1 })).toEqual({ title: 'x', count: 1 });
  });

  it("keeps the schema's own message, for a missing field and for a wrong type", () => {
    expect(messageOf(schema, { count: 1 })).toBe('Title is required');
    expect(messageOf(schema, { title: 5, count: 1 })).toBe('Title is required');
    expect(messageOf(schema, { title: '', count: 1 })).toBe('Title is required');
  });

  it('names the field where the schema has no message: missing vs wrong type', () => {
    expect(messageOf(schema, { title: 'x' })).toBe('count is required');
    expect(messageOf(schema, { title: 'x', count: 'many' })).toBe('count must be a number');
  });

  it('is a 400 carrying the field', () => {
    try {
      parseInput(schema, { title: 'x' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'count' } });
    }
    expect.assertions(1);
  });
});
