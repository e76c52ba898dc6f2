import { DomainError, rejection } from '@auction/contracts';
import type { z } from 'zod';

const isZodDefault = (message: string): boolean => message.startsWith('Invalid input');

/**
 * Parses input with a schema; a failure is a 400 whose message is the first problem's own text
 * (the schemas carry the spec's messages, e.g. 'Title is required'). Where a schema set no
 * message of its own, a missing field reads "<field> is required" and a wrong type
 * "<field> must be a <type>".
 */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.infer<S> => {
  // Parsed first as is: zod's fast path, which `reportInput` turns off (it costs a bid about
  // twice as much). Only a refused input is parsed again, with its values, to word the message.
  const fast = schema.safeParse(input);
  if (fast.success) return fast.data;
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.');
  let message = issue?.message ?? 'Invalid input';
  if (issue?.code === 'invalid_type' && field && isZodDefault(issue.message)) {
    message =
      issue.input === undefined ? `${field} is required` : `${field} must be a ${issue.expected}`;
  }
  throw new DomainError(rejection('VALIDATION_FAILED', field ? { field } : undefined, message));
};
