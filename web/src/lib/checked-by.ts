import { z } from 'zod';

/**
 * A form's text field judged by the API's own schema for it (from `@auction/contracts`): the same
 * rules and, for each problem, the same message as the server's 400. The value stays the text the
 * user typed (trimmed), for the form to send; the server parses it again.
 */
export const checkedBy = (schema: z.ZodType) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const parsed = schema.safeParse(value);
      if (!parsed.success)
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Invalid' });
    });
