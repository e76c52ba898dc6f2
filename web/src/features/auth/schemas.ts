import { LoginFields, SignupFields, passwordsMatch } from '@auction/contracts';
import { z } from 'zod';

/** Login form (spec §5): the API's own fields. */
export const LoginForm = LoginFields;
export type LoginForm = z.infer<typeof LoginForm>;

/** Signup form (spec §5): the API's fields and the terms box; the photo is checked when chosen. */
export const SignupForm = passwordsMatch(
  SignupFields.extend({
    terms: z.boolean().refine((agreed) => agreed, 'You must agree to the terms and conditions'),
  }),
);
export type SignupForm = z.infer<typeof SignupForm>;
