import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import type { AppDeps } from '../../../app-deps';
import { decoyHash, verifyPassword } from '../../../accounts/password';

/**
 * Passport for one app: the local strategy checks the password. Sessions are not passport's: the
 * session middleware (`../session.ts`) puts the signed-in account on `req.user`, and
 * `startSession`/`endSession` (`../session.ts`) log in and out.
 */
export const createPassport = (deps: AppDeps) => {
  const passport = new Passport();
  passport.use(
    'local',
    new LocalStrategy(
      { usernameField: 'email', passwordField: 'password' },
      (email, password, done) => {
        const check = async () => {
          const account = await deps.accounts.byEmail(email);
          // Unknown e-mails cost a full hash too, so timing does not tell which accounts exist.
          const ok = await verifyPassword(password, account?.passwordHash ?? (await decoyHash));
          return ok && account?.passwordHash ? account : false;
        };
        check().then(
          (account) => done(null, account),
          (error: unknown) => done(error),
        );
      },
    ),
  );
  return passport;
};
export type AppPassport = ReturnType<typeof createPassport>;
