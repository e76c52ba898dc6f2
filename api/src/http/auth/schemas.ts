import { visibleText } from '@auction/contracts';
import { z } from 'zod';

// A non-string (absent, repeated) reads as empty so that it gets the field's own 'required' message.
const field = <S extends z.ZodType<unknown, string>>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' ? value : ''), schema);

const form = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}),
    schema,
  );

// Normalised (NFKC: a fullwidth address is the plain one) and without invisible characters.
const email = field(
  visibleText('Email')
    .min(1, 'Email is required')
    .max(254, 'Invalid email address')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email address'),
);

/** Login form (spec §5). */
export const LoginBody = form(
  z.object({
    email,
    password: field(
      z
        .string()
        .min(1, 'Password is required')
        .min(6, 'Password must be at least 6 characters')
        .max(200, 'Password is too long'),
    ),
  }),
);
export type LoginBody = z.infer<typeof LoginBody>;

const name = (label: string) =>
  field(
    visibleText(label)
      .min(1, `${label} is required`)
      .min(2, `${label} must be at least 2 characters`)
      .max(60, `${label} must be at most 60 characters`),
  );

/** Signup form (spec §5); `role` is accepted and ignored: every signup is a User. */
export const SignupBody = form(
  z
    .object({
      firstName: name('First name'),
      lastName: name('Last name'),
      email,
      password: field(
        z
          .string()
          .min(1, 'Password is required')
          .min(8, 'Password must be at least 8 characters')
          .max(200, 'Password is too long')
          .regex(
            /(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/,
            'Password must contain uppercase, lowercase, and number',
          ),
      ),
      confirmPassword: field(z.string().min(1, 'Please confirm your password')),
      role: z.unknown().optional(),
    })
    .refine((b) => b.password === b.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    }),
);
export type SignupBody = z.infer<typeof SignupBody>;
