import { type PublicUser, Role, type SessionUser } from '@auction/contracts';
import { type ImageUrl, storedImagePath } from '@auction/projections';

export type { Role };
export const roles: readonly Role[] = Role.options;

/** A user's account: the only place personal data lives (events carry the id alone). */
export interface Account {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly role: Role;
  readonly imageUrl: string | null;
  readonly passwordHash: string | null;
  /** The OpenID subject of a Google account linked to this one. */
  readonly googleSubject: string | null;
  readonly createdAt: string;
}

export interface NewAccount {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly imageUrl: string | null;
  readonly passwordHash: string | null;
  readonly googleSubject: string | null;
  readonly createdAt: string;
}

/** The user as login and `GET /auth/me` return it. */
export const userView = (account: Account, imageUrl: ImageUrl = storedImagePath): SessionUser => ({
  _id: account.id,
  id: account.id,
  name: `${account.firstName} ${account.lastName}`.trim(),
  firstName: account.firstName,
  lastName: account.lastName,
  email: account.email,
  role: account.role,
  image: account.imageUrl ? { url: imageUrl(account.imageUrl) } : null,
  createdAt: account.createdAt,
});

export const publicUser = (account: Account, imageUrl: ImageUrl = storedImagePath): PublicUser => ({
  _id: account.id,
  firstName: account.firstName,
  lastName: account.lastName,
  image: account.imageUrl ? { url: imageUrl(account.imageUrl) } : null,
});

/** E-mails compare trimmed and case-folded. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
