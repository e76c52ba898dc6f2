import { DomainError, rejection } from '@auction/contracts';
import type { z } from 'zod';

/**
 * Parses input with a schema; a failure is a 400 whose message is the first problem's own text
 * (the schemas carry the spec's messages, e.g. 'Title is required').
 */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.infer<S> => {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.');
  const message =
    issue === undefined
      ? 'Invalid input'
      : issue.code === 'invalid_type' && issue.input === undefined && field
        ? `${field} is required`
        : issue.message;
  throw new DomainError(rejection('VALIDATION_FAILED', field ? { field } : undefined, message));
};
