import { randomUUID } from 'node:crypto';
import { DomainError, type LoginBody, authOperations as ops, rejection } from '@auction/contracts';
import { Router, type RequestHandler } from 'express';
import { normaliseEmail, userView, type Account } from '../../../accounts/account';
import { hashPassword } from '../../../accounts/password';
import type { AppDeps } from '../../../app-deps';
import { clientAddress, limiter } from '../../middleware/rate-limit';
import { commandMetadata, currentUser } from '../../request-context';
import { respond } from '../../respond';
import { SESSION_COOKIE, endSession, startSession } from '../../middleware/session';
import { claimUpload } from '../../middleware/image-upload';
import { imageUploadOf } from '../../middleware/upload-limits';
import { type OperationHandler, routesOn } from '../../route';
import { parseInput } from '../../validate';
import { googleRoutes } from './google';
import type { AppPassport } from './passport';

const MINUTE_MS = 60_000;

// Runs before the limiter: a malformed body gets its 400 and the limit is keyed by the parsed e-mail.
const validLogin: RequestHandler = (req, _res, next) => {
  req.body = parseInput(ops.login.body, req.body);
  next();
};

/** Sign-ups per address, and logins per address and e-mail with a looser cap per address. */
const authLimits = (deps: AppDeps) => ({
  signup: limiter({
    windowMs: 60 * MINUTE_MS,
    limit: deps.config.RATE_LIMIT_SIGNUP,
    key: clientAddress,
    message: 'Too many sign-ups from this address, please try again later',
    store: deps.rateLimits('signup'),
  }),
  login: limiter({
    windowMs: 15 * MINUTE_MS,
    limit: deps.config.RATE_LIMIT_LOGIN,
    key: (req) => `${clientAddress(req)} ${normaliseEmail((req.body as LoginBody).email)}`,
    message: 'Too many login attempts, please try again later',
    store: deps.rateLimits('login'),
  }),
  // One address trying many e-mails.
  loginAddress: limiter({
    windowMs: 15 * MINUTE_MS,
    limit: deps.config.RATE_LIMIT_LOGIN * 10,
    key: (req) => `address ${clientAddress(req)}`,
    message: 'Too many login attempts, please try again later',
    store: deps.rateLimits('login-address'),
  }),
});

const signup =
  (deps: AppDeps): OperationHandler<typeof ops.signup> =>
  async (req, res, input) => {
    const body = input.body();
    const imageUrl = claimUpload(req);
    const id = randomUUID();
    const metadata = commandMetadata(req, deps, id);
    let created = false;
    try {
      await deps.accounts.create({
        id,
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email,
        imageUrl,
        passwordHash: await hashPassword(body.password),
        googleSubject: null,
        createdAt: metadata.at,
      });
      created = true;
      await deps.engine.recordAccountEvent(
        { type: 'AccountRegistered', data: { userId: id, method: 'password', at: metadata.at } },
        metadata,
      );
    } catch (error) {
      if (created) await deps.accounts.erase(id);
      // Nothing references it now (no account was kept); a failed removal only leaves it behind.
      await deps.images.remove(imageUrl).catch((removal: unknown) => {
        deps.log("A refused sign-up's image not removed", removal);
      });
      throw error;
    }
    respond(res, 201, 'Sign Up Successful');
  };

const login =
  (deps: AppDeps, passport: AppPassport): OperationHandler<typeof ops.login> =>
  async (req, res) => {
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
    respond(res, 200, 'Login Successful', { user: userView(account, deps.imageUrl) });
  };

export const authRoutes = (deps: AppDeps, passport: AppPassport): Router => {
  const router = Router();
  const route = routesOn(router, '/auth');
  const limits = authLimits(deps);
  route(ops.signup, limits.signup, imageUploadOf(deps), signup(deps));
  route(ops.login, validLogin, limits.loginAddress, limits.login, login(deps, passport));
  route(ops.logout, async (req, res) => {
    if (req.user) {
      deps.realtime.disconnectSession(req.sessionID);
      await endSession(req);
    }
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    respond(res, 200, 'Logged Out');
  });
  route(ops.me, (req, res) => {
    respond(res, 200, 'OK', { user: userView(currentUser(req), deps.imageUrl) });
  });
  router.use(googleRoutes(deps, passport));
  return router;
};
