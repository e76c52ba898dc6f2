import { z } from 'zod';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const email = z.string().trim().min(1, 'Email is required').regex(EMAIL, 'Invalid email address');

/** Login form (spec §5). */
export const LoginForm = z.object({
  email,
  password: z
    .string()
    .min(1, 'Password is required')
    .min(6, 'Password must be at least 6 characters'),
});
export type LoginForm = z.infer<typeof LoginForm>;

const name = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .min(2, `${label} must be at least 2 characters`)
    .max(60, `${label} must be at most 60 characters`);

/** Signup form (spec §5); the photo is checked when chosen. */
export const SignupForm = z
  .object({
    firstName: name('First name'),
    lastName: name('Last name'),
    email,
    password: z
      .string()
      .min(1, 'Password is required')
      .min(8, 'Password must be at least 8 characters')
      .regex(
        /(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/,
        'Password must contain uppercase, lowercase, and number',
      ),
    confirmPassword: z.string().min(1, 'Please confirm your password'),
    terms: z.boolean().refine((agreed) => agreed, 'You must agree to the terms and conditions'),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type SignupForm = z.infer<typeof SignupForm>;
