import { SessionUser } from '@auction/contracts';
import { z } from 'zod';
import { call } from '../api-client';

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
