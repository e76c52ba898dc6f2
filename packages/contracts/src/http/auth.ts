import { z } from 'zod';
import { rules } from '../rules';
import { visibleText } from '../text';
import { operationTable } from './operation';
import { SessionUser } from './views';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Normalised (NFKC: a fullwidth address is the plain one) and without invisible characters. */
export const Email = visibleText('Email')
  .min(1, 'Email is required')
  .max(254, 'Invalid email address')
  .regex(EMAIL, 'Invalid email address');

const LoginPassword = z
  .string()
  .min(1, 'Password is required')
  .min(6, 'Password must be at least 6 characters')
  .max(200, 'Password is too long');

const NewPassword = z
  .string()
  .min(1, 'Password is required')
  .min(8, 'Password must be at least 8 characters')
  .max(200, 'Password is too long')
  .regex(
    /(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/,
    'Password must contain uppercase, lowercase, and number',
  );

const { name: NAME_MAX } = rules.maxLength;

/** A first or last name. */
const personName = (label: string) =>
  visibleText(label)
    .min(1, `${label} is required`)
    .min(rules.minNameLength, `${label} must be at least ${rules.minNameLength} characters`)
    .max(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`);

/** The login form's fields as text (spec §5): what the web form checks. */
export const LoginFields = z.object({ email: Email, password: LoginPassword });

/** The sign-up form's fields as text (spec §5); the match of the passwords is `passwordsMatch`. */
export const SignupFields = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: Email,
  password: NewPassword,
  confirmPassword: z.string().min(1, 'Please confirm your password'),
});

/** The confirmation must repeat the password: the refinement both the API and the form apply. */
export const passwordsMatch = <S extends z.ZodType<{ password: string; confirmPassword: string }>>(
  schema: S,
) =>
  schema.refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

// A non-string (absent, repeated) reads as empty so that it gets the field's own 'required' message.
const field = <S extends z.ZodType<unknown, string>>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' ? value : ''), schema);

const form = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}),
    schema,
  );

/** Login (spec §5). */
export const LoginBody = form(z.object({ email: field(Email), password: field(LoginPassword) }));
export type LoginBody = z.infer<typeof LoginBody>;

const { shape: signup } = SignupFields;

/** Sign-up (spec §5); `role` is accepted and ignored: every signup is a User. */
export const SignupBody = form(
  passwordsMatch(
    z.object({
      firstName: field(signup.firstName),
      lastName: field(signup.lastName),
      email: field(signup.email),
      password: field(signup.password),
      confirmPassword: field(signup.confirmPassword),
      role: z.unknown().optional(),
    }),
  ),
);
export type SignupBody = z.infer<typeof SignupBody>;

/** An ID token the provider signed (Google Identity Services' `credential`). */
export const GoogleLoginBody = z.object({ credential: z.string().min(1).max(10_000) });

/** `/api/v1/auth/...`: accounts and sessions. */
export const authOperations = operationTable({
  signup: {
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account (optional photo)',
    auth: 'none',
    body: SignupBody,
    multipart: true,
    ok: 201,
  },
  login: {
    method: 'post',
    path: '/auth/login',
    summary: 'Log in with e-mail and password',
    auth: 'none',
    body: LoginBody,
    ok: 200,
    payload: { user: SessionUser },
  },
  logout: {
    method: 'post',
    path: '/auth/logout',
    summary: 'End the session',
    auth: 'none',
    ok: 200,
  },
  me: {
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user',
    auth: 'user',
    ok: 200,
    payload: { user: SessionUser },
  },
  googleStatus: {
    method: 'get',
    path: '/auth/google/status',
    summary: 'Whether Google sign-in is available on this server',
    auth: 'none',
    ok: 200,
    payload: { enabled: z.boolean() },
  },
  googleStart: {
    method: 'get',
    path: '/auth/google',
    summary: 'Start Google sign-in (redirects to the provider; 404 when not available)',
    auth: 'none',
    ok: 302,
  },
  googleCallback: {
    method: 'get',
    path: '/auth/google/callback',
    summary: "The provider's redirect back (redirects into the app)",
    auth: 'none',
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    ok: 302,
  },
  googleLogin: {
    method: 'post',
    path: '/auth/google-login',
    summary: 'Log in with a Google-signed ID token',
    auth: 'none',
    body: GoogleLoginBody,
    ok: 200,
    payload: { user: SessionUser },
  },
});
