import { randomUUID } from 'node:crypto';
import {
  API_BASE,
  DomainError,
  authOperations as ops,
  errorCatalog,
  rejection,
} from '@auction/contracts';
import { Router, type Request } from 'express';
import { type JWTVerifyGetKey, createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import {
  type Configuration,
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  calculatePKCECodeChallenge,
  discovery,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client';
import { z } from 'zod';
import { type Account, userView } from '../../../accounts/account';
import type { AppDeps } from '../../../app-deps';
import { commandMetadata } from '../../request-context';
import { respond } from '../../respond';
import { type OperationHandler, routesOn } from '../../route';
import { startSession } from '../../middleware/session';
import type { AppPassport } from './passport';

declare module 'express-session' {
  interface SessionData {
    google?: { state: string; nonce: string; verifier: string; startedAt: number };
  }
}

const CALLBACK_PATH = `${API_BASE}${ops.googleCallback.path}`;
const SUCCESS_PATH = '/dashboard/my-profile';
const FAILURE_PATH = '/login?error=google';
const PENDING_TTL_MS = 10 * 60_000;
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
const NAME_MAX = 60;

const Identity = z.object({
  sub: z.string().min(1).max(255),
  email: z
    .string()
    .trim()
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/),
  email_verified: z.literal(true),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
});
type Identity = z.infer<typeof Identity>;

interface Provider {
  readonly config: Configuration;
  readonly issuer: string;
  readonly jwks: JWTVerifyGetKey;
}

interface Settings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

const settingsOf = (deps: AppDeps): Settings | undefined => {
  const { GOOGLE_ISSUER, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = deps.config;
  return GOOGLE_CLIENT_ID && GOOGLE_CLIENT_SECRET
    ? { issuer: GOOGLE_ISSUER, clientId: GOOGLE_CLIENT_ID, clientSecret: GOOGLE_CLIENT_SECRET }
    : undefined;
};

const GOOGLE_OFF = errorCatalog.GOOGLE_NOT_CONFIGURED.message;

const requireSettings = (deps: AppDeps): Settings => {
  const settings = settingsOf(deps);
  if (!settings) throw new DomainError(rejection('GOOGLE_NOT_CONFIGURED'));
  return settings;
};

const namesOf = (identity: Identity): { firstName: string; lastName: string } => {
  const display = (identity.name ?? '').trim();
  const space = display.indexOf(' ');
  const first = identity.given_name?.trim() || (space < 0 ? display : display.slice(0, space));
  const last = identity.family_name?.trim() || (space < 0 ? '' : display.slice(space + 1).trim());
  return {
    firstName: (first || identity.email.split('@')[0] || 'Google').slice(0, NAME_MAX),
    lastName: last.slice(0, NAME_MAX),
  };
};

const saveSession = (req: Request): Promise<void> =>
  new Promise((resolve, reject) =>
    req.session.save((error) => (error ? reject(error as Error) : resolve())),
  );

/** The callback URL as the provider called it: our registered redirect URI plus its query. */
const callbackUrl = (deps: AppDeps, req: Request): URL => {
  const url = new URL(`${deps.origin}${CALLBACK_PATH}`);
  const query = req.originalUrl.indexOf('?');
  if (query >= 0) url.search = req.originalUrl.slice(query);
  return url;
};

/** The provider's discovered configuration and keys, fetched once; fetched again after a failure. */
const providerOf = () => {
  let discovered: Promise<Provider> | undefined;
  return (settings: Settings): Promise<Provider> => {
    discovered ??= (async () => {
      const issuerUrl = new URL(settings.issuer);
      const config = await discovery(
        issuerUrl,
        settings.clientId,
        settings.clientSecret,
        undefined,
        issuerUrl.protocol === 'http:' ? { execute: [allowInsecureRequests] } : undefined,
      );
      const metadata = config.serverMetadata();
      if (!metadata.jwks_uri) throw new Error('The OpenID provider publishes no jwks_uri');
      return {
        config,
        issuer: metadata.issuer,
        jwks: createRemoteJWKSet(new URL(metadata.jwks_uri)),
      };
    })().catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };
};
type ProviderOf = ReturnType<typeof providerOf>;

const register = async (deps: AppDeps, req: Request, identity: Identity): Promise<Account> => {
  const id = randomUUID();
  const metadata = commandMetadata(req, deps, id);
  const account = await deps.accounts.create({
    id,
    ...namesOf(identity),
    email: identity.email,
    imageUrl: null,
    passwordHash: null,
    googleSubject: identity.sub,
    createdAt: metadata.at,
  });
  try {
    await deps.engine.recordAccountEvent(
      { type: 'AccountRegistered', data: { userId: id, method: 'google', at: metadata.at } },
      metadata,
    );
  } catch (error) {
    await deps.accounts.erase(id);
    throw error;
  }
  return account;
};

/** The account of a provider's identity: by subject, then by verified e-mail (linked), else new. */
const accountOf = async (deps: AppDeps, req: Request, identity: Identity): Promise<Account> => {
  for (let attempt = 0; ; attempt++) {
    const linked = await deps.accounts.byGoogleSubject(identity.sub);
    if (linked) return linked;
    const byEmail = await deps.accounts.byEmail(identity.email);
    if (byEmail) {
      if (byEmail.googleSubject !== null) throw new DomainError(rejection('EMAIL_TAKEN'));
      await deps.accounts.linkGoogle(byEmail.id, identity.sub);
      return (await deps.accounts.byId(byEmail.id)) ?? byEmail;
    }
    try {
      return await register(deps, req, identity);
    } catch (error) {
      // A concurrent sign-in for the same person created the account first: look it up again.
      if (error instanceof DomainError && error.code === 'EMAIL_TAKEN' && attempt < 1) continue;
      throw error;
    }
  }
};

const startFlow =
  (deps: AppDeps, provider: ProviderOf): OperationHandler<typeof ops.googleStart> =>
  async (req, res) => {
    const settings = requireSettings(deps);
    try {
      const { config } = await provider(settings);
      const verifier = randomPKCECodeVerifier();
      const pending = {
        state: randomState(),
        nonce: randomNonce(),
        verifier,
        startedAt: deps.clock.now(),
      };
      const url = buildAuthorizationUrl(config, {
        redirect_uri: `${deps.origin}${CALLBACK_PATH}`,
        scope: 'openid email profile',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      req.session.google = pending;
      await saveSession(req);
      res.redirect(302, url.href);
    } catch (error) {
      deps.log('Google sign-in could not start', error);
      res.redirect(302, FAILURE_PATH);
    }
  };

const finishFlow =
  (deps: AppDeps, provider: ProviderOf): OperationHandler<typeof ops.googleCallback> =>
  async (req, res) => {
    const settings = requireSettings(deps);
    const pending = req.session.google;
    delete req.session.google;
    try {
      if (!pending || deps.clock.now() - pending.startedAt > PENDING_TTL_MS)
        throw new Error('No Google sign-in in progress for this session');
      const { config } = await provider(settings);
      const tokens = await authorizationCodeGrant(config, callbackUrl(deps, req), {
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.verifier,
        idTokenExpected: true,
      });
      const identity = Identity.parse(tokens.claims());
      await startSession(req, await accountOf(deps, req, identity));
      res.redirect(302, SUCCESS_PATH);
    } catch (error) {
      deps.log('Google sign-in failed', error);
      res.redirect(302, FAILURE_PATH);
    }
  };

/** The identity in an ID token the provider signed; a key set out of reach is our outage (503). */
const identityOf = async (
  deps: AppDeps,
  settings: Settings,
  { issuer, jwks }: Provider,
  credential: string,
): Promise<Identity> => {
  try {
    const { payload } = await jwtVerify(credential, jwks, {
      // Google's own tokens may name the issuer without the scheme.
      issuer: issuer === 'https://accounts.google.com' ? [issuer, 'accounts.google.com'] : issuer,
      audience: settings.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 5,
    });
    return Identity.parse(payload);
  } catch (error) {
    const unreachable =
      error instanceof joseErrors.JWKSTimeout ||
      !(error instanceof joseErrors.JOSEError || error instanceof z.ZodError);
    deps.log(
      unreachable ? 'Google sign-in: the key set cannot be fetched' : 'Google ID token rejected',
      error,
    );
    throw new DomainError(rejection(unreachable ? 'UNAVAILABLE' : 'INVALID_ID_TOKEN'));
  }
};

const idTokenLogin =
  (deps: AppDeps, provider: ProviderOf): OperationHandler<typeof ops.googleLogin> =>
  async (req, res) => {
    const settings = requireSettings(deps);
    // Any body that is not a token is the token's refusal, not a 400 naming a field.
    const body = ops.googleLogin.body.safeParse(req.body);
    if (!body.success) throw new DomainError(rejection('INVALID_ID_TOKEN'));
    let issuerKeys: Provider;
    try {
      issuerKeys = await provider(settings);
    } catch (error) {
      deps.log('Google sign-in: the issuer cannot be reached', error);
      throw new DomainError(rejection('UNAVAILABLE'));
    }
    const identity = await identityOf(deps, settings, issuerKeys, body.data.credential);
    const account = await accountOf(deps, req, identity);
    await startSession(req, account);
    respond(res, 200, 'Login Successful', { user: userView(account, deps.imageUrl) });
  };

/**
 * Google (any OpenID Connect provider) sign-in: the authorization code flow with state, nonce and
 * PKCE, and `POST /google-login` for an ID token the provider signed. The provider's identity is
 * matched to an account by subject, then by verified e-mail (linking it), else a new account.
 */
export const googleRoutes = (deps: AppDeps, _passport: AppPassport): Router => {
  const router = Router();
  const route = routesOn(router, '/auth');
  const provider = providerOf();
  // Whether the Google buttons can work here: the web app disables them when not.
  route(ops.googleStatus, (_req, res) => {
    const enabled = settingsOf(deps) !== undefined;
    respond(res, 200, enabled ? 'Google sign-in is available' : GOOGLE_OFF, { enabled });
  });
  route(ops.googleStart, startFlow(deps, provider));
  route(ops.googleCallback, finishFlow(deps, provider));
  route(ops.googleLogin, idTokenLogin(deps, provider));
  return router;
};
