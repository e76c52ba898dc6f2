import { z } from 'zod';
import { Id } from '../ids';
import { MAX_CENTS, formatWholeCents, hasAtMostTwoDecimals } from '../money';
import { type TextKind, visibleText } from '../text';

/**
 * The pieces of the request schemas. Each problem gets its own message (the spec's words), which
 * the API answers with as is (`parseInput`) and the web forms show under the field: so a field
 * whose value is missing or of the wrong kind fails with a custom issue, not `invalid_type`.
 */

/** Absent, null or blank text: what a "required" message is for. */
export const missing = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A value that is there and of its kind, with a message for each way it is not. */
export const present = <T>(
  isKind: (value: unknown) => value is T,
  required: string,
  wrongKind: string,
) =>
  z.custom<T>((value) => !missing(value) && isKind(value), {
    error: (issue) => (missing(issue.input) ? required : wrongKind),
  });

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * Text a person typed: normalised (NFKC), trimmed, refused when it holds invisible or control
 * characters its kind may not hold (`visibleText`). `kind: null` for an id given as text.
 */
export const text = (
  label: string,
  max: number,
  required = `${label} is required`,
  kind: TextKind | null = 'line',
) =>
  present(isString, required, `${label} must be text`).pipe(
    (kind === null ? z.string().trim() : visibleText(label, kind))
      .min(1, required)
      .max(max, `${label} must be at most ${max} characters`),
  );

/** Optional text (a filter): absent is none; trimmed, at most `max` characters. */
export const optionalText = (label: string, max: number) =>
  z
    .custom<string>(isString, { error: `${label} must be text` })
    .pipe(z.string().trim().max(max, `${label} must be at most ${max} characters`))
    .optional();

/** An id given as text, whose every problem names it by `label`. */
export const idOf = (label: string) =>
  present(
    (value): value is string => Id.safeParse(value).success,
    `${label} is required`,
    `Invalid ${label.toLowerCase()}`,
  );

/** An id in a JSON body or a path, named by its field (`productId`, `bidId`) in every message. */
export const idField = (field: string) =>
  z.unknown().transform((value, ctx): string => {
    const message =
      value === undefined
        ? `${field} is required`
        : typeof value !== 'string'
          ? `${field} must be a string`
          : Id.safeParse(value).success
            ? undefined
            : `Invalid ${field}`;
    if (message === undefined) return value as string;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/** The largest amount in dollars. */
export const MAX_DOLLARS = MAX_CENTS / 100;

export const DECIMALS = 'Amounts may have at most two decimals';

/** `${label} must be at least $100`: a limit in whole dollars as the messages write it. */
export const atLeast = (label: string, cents: number): string =>
  `${label} must be at least ${formatWholeCents(cents)}`;
export const atMost = (label: string, cents: number): string =>
  `${label} must be at most ${formatWholeCents(cents)}`;

/**
 * A form field's money as a number: multipart fields (and the web forms' inputs) arrive as text,
 * judged as written: Number() would round away what a double cannot hold
 * ("100.100000000000000000001" reads as 100.1). Anything else is left to the schema that follows.
 */
export const numeral = (value: unknown, ctx: z.RefinementCtx): unknown => {
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return value;
  if (!hasAtMostTwoDecimals(value)) ctx.addIssue({ code: 'custom', message: DECIMALS });
  return Number(value);
};

/** The message of a body that is not a JSON object. */
export const requestBody = { error: 'The request body must be an object' };
