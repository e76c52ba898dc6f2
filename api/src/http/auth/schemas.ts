import { z } from 'zod';

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Invalid email address')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email address');

/** Login form (spec §5). */
export const LoginBody = z.object({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password is too long'),
});

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .min(2, `${label} must be at least 2 characters`)
    .max(60, `${label} must be at most 60 characters`);

/** Signup form (spec §5); `role` is accepted and ignored: every signup is a User. */
export const SignupBody = z
  .object({
    firstName: name('First name'),
    lastName: name('Last name'),
    email,
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .min(8, 'Password must be at least 8 characters')
      .max(200, 'Password is too long')
      .regex(
        /(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/,
        'Password must contain uppercase, lowercase, and number',
      ),
    confirmPassword: z
      .string({ error: 'Please confirm your password' })
      .min(1, 'Please confirm your password'),
    role: z.unknown().optional(),
  })
  .refine((b) => b.password === b.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
