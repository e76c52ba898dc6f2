import { z } from 'zod';
import { call } from '../../lib/api-client';

/** The logged-in user as login and `GET /auth/me` return it (design §5). */
export const SessionUser = z.object({
  _id: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string(),
  image: z.object({ url: z.string() }).nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

const WithUser = z.object({ user: SessionUser });
const Empty = z.object({});

export const sessionApi = {
  login: (email: string, password: string) =>
    call('/auth/login', WithUser, { method: 'POST', json: { email, password } }),
  signup: (form: FormData) => call('/auth/signup', Empty, { method: 'POST', form }),
  me: () => call('/auth/me', WithUser),
  logout: () => call('/auth/logout', Empty, { method: 'POST' }),
  deleteAccount: () => call('/user/delete-account', Empty, { method: 'DELETE' }),
};
