import { randomUUID } from 'node:crypto';
import { DomainError, rejection } from '@auction/contracts';
import { Router, type Request, type RequestHandler } from 'express';
import { userView, type Account } from '../../accounts/account';
import { hashPassword } from '../../accounts/password';
import { appendUserEvent } from '../../accounts/user-events';
import type { AppDeps } from '../../app-deps';
import { commandMetadata, currentUser } from '../request-context';
import { respond } from '../respond';
import { SESSION_COOKIE } from '../session';
import { imageUpload } from '../uploads';
import { parseInput } from '../validate';
import { googleRoutes } from './google';
import type { AppPassport } from './passport';
import { LoginBody, SignupBody } from './schemas';

/** Logs the account in on a fresh session id (no session fixation). */
export const startSession = (req: Request, account: Account): Promise<void> =>
  new Promise((resolve, reject) =>
    req.session.regenerate((regenerateError) => {
      if (regenerateError) return reject(regenerateError as Error);
      req.login(account, { session: true, keepSessionInfo: false }, (loginError) =>
        loginError ? reject(loginError as Error) : resolve(),
      );
    }),
  );

/** Ends the request's session and removes its cookie. */
export const endSession = (req: Request): Promise<void> =>
  new Promise((resolve, reject) =>
    req.logout({ keepSessionInfo: false }, (logoutError) => {
      if (logoutError) return reject(logoutError as Error);
      req.session.destroy((destroyError) =>
        destroyError ? reject(destroyError as Error) : resolve(),
      );
    }),
  );

export const authRoutes = (deps: AppDeps, passport: AppPassport): Router => {
  const router = Router();

  router.post('/signup', imageUpload, async (req, res) => {
    const body = parseInput(SignupBody, req.body);
    const imageUrl = req.file ? await deps.images.save(req.file.buffer) : null;
    const id = randomUUID();
    try {
      deps.accounts.create({
        id,
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email,
        imageUrl,
        passwordHash: await hashPassword(body.password),
        googleSubject: null,
        createdAt: new Date(deps.clock.now()).toISOString(),
      });
    } catch (error) {
      await deps.images.remove(imageUrl);
      throw error;
    }
    const metadata = commandMetadata(req, deps, id);
    await appendUserEvent(
      deps.events,
      { type: 'AccountRegistered', data: { userId: id, method: 'password', at: metadata.at } },
      metadata,
    );
    respond(res, 201, 'Sign Up Successful');
  });

  router.post('/login', async (req, res) => {
    parseInput(LoginBody, req.body);
    const account = await new Promise<Account | false>((resolve, reject) => {
      const authenticate = passport.authenticate(
        'local',
        { session: false },
        (error: unknown, user: Account | false) =>
          error
            ? reject(error instanceof Error ? error : new Error('Authentication failed'))
            : resolve(user),
      ) as RequestHandler;
      void authenticate(req, res, () => undefined);
    });
    if (!account) throw new DomainError(rejection('INVALID_CREDENTIALS'));
    await startSession(req, account);
    respond(res, 200, 'Login Successful', { user: userView(account) });
  });

  router.post('/logout', async (req, res) => {
    if (req.user) await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    respond(res, 200, 'Logged Out');
  });

  router.get('/me', (req, res) => {
    respond(res, 200, 'OK', { user: userView(currentUser(req)) });
  });

  router.use(googleRoutes(deps, passport));
  return router;
};
