import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWK, SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';

export interface OidcUser {
  readonly sub: string;
  readonly email: string;
  readonly emailVerified?: boolean;
  readonly givenName?: string;
  readonly familyName?: string;
  readonly name?: string;
}

export interface SignOptions {
  /** `own`: the provider's published key; `other`: a key nobody published (a forgery). */
  readonly key?: 'own' | 'other';
  /** `RS256` unless told; `HS256` signs with the client secret, `none` leaves it unsigned. */
  readonly alg?: 'RS256' | 'HS256' | 'none';
}

export interface OidcProvider {
  readonly issuer: string;
  /** An ID token for the current user; an override set to `undefined` removes that claim. */
  signIdToken(overrides?: Record<string, unknown>, options?: SignOptions): Promise<string>;
  setUser(user: OidcUser): void;
  /** Registers a redirect URI the client may use (the app's port is known only after start). */
  allowRedirectUri(uri: string): void;
  close(): Promise<void>;
}

interface Grant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly nonce: string | undefined;
  readonly user: OidcUser;
  readonly expiresAt: number;
}

const KID = 'test-key-1';
const CODE_TTL_MS = 60_000;
const TOKEN_TTL_S = 3600;

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

const readForm = async (req: IncomingMessage): Promise<URLSearchParams> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));

const clientCredentials = (
  req: IncomingMessage,
  form: URLSearchParams,
): { id: string | null; secret: string | null } => {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { id: null, secret: null };
    return {
      id: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
    };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
};

const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/**
 * A small, real OpenID Connect provider on 127.0.0.1 for tests: discovery, JWKS, the authorization
 * code flow with PKCE (S256) and RS256-signed ID tokens. `/authorize` logs the configured user in
 * without any UI.
 */
export const startOidcProvider = async (options: {
  clientId: string;
  clientSecret: string;
  user: OidcUser;
  redirectUris?: readonly string[];
}): Promise<OidcProvider> => {
  const own = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const publicJwk: JWK = {
    ...(await exportJWK(own.publicKey)),
    kid: KID,
    alg: 'RS256',
    use: 'sig',
  };
  const redirectUris = new Set(options.redirectUris ?? []);
  const grants = new Map<string, Grant>();
  let user = options.user;
  let issuer = '';

  const claimsOf = (subject: OidcUser, audience: string, nonce?: string) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: issuer,
      aud: audience,
      sub: subject.sub,
      email: subject.email,
      email_verified: subject.emailVerified ?? true,
      given_name: subject.givenName,
      family_name: subject.familyName,
      name: subject.name,
      nonce,
      iat: now,
      exp: now + TOKEN_TTL_S,
    };
  };

  const sign = async (claims: Record<string, unknown>, signOptions: SignOptions = {}) => {
    const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
    const alg = signOptions.alg ?? 'RS256';
    if (alg === 'none') return new UnsecuredJWT(payload).encode();
    if (alg === 'HS256')
      return new SignJWT(payload)
        .setProtectedHeader({ alg, typ: 'JWT' })
        .sign(new TextEncoder().encode(options.clientSecret));
    const key = signOptions.key === 'other' ? other.privateKey : own.privateKey;
    return new SignJWT(payload).setProtectedHeader({ alg, kid: KID, typ: 'JWT' }).sign(key);
  };

  const authorize = (url: URL, res: ServerResponse): void => {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== options.clientId || !redirectUris.has(redirectUri)) {
      sendJson(res, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
      return;
    }
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    back.searchParams.set('iss', issuer);
    const challenge = q.get('code_challenge');
    const scopes = (q.get('scope') ?? '').split(' ');
    const error =
      q.get('response_type') !== 'code'
        ? 'unsupported_response_type'
        : !scopes.includes('openid')
          ? 'invalid_scope'
          : !challenge || q.get('code_challenge_method') !== 'S256'
            ? 'invalid_request'
            : undefined;
    if (error || !challenge) {
      back.searchParams.set('error', error ?? 'invalid_request');
    } else {
      const code = randomBytes(24).toString('base64url');
      grants.set(code, {
        clientId: options.clientId,
        redirectUri,
        codeChallenge: challenge,
        nonce: q.get('nonce') ?? undefined,
        user,
        expiresAt: Date.now() + CODE_TTL_MS,
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.href });
    res.end();
  };

  const token = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const form = await readForm(req);
    const client = clientCredentials(req, form);
    if (client.id !== options.clientId || client.secret !== options.clientSecret) {
      sendJson(res, 401, { error: 'invalid_client' });
      return;
    }
    if (form.get('grant_type') !== 'authorization_code') {
      sendJson(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    grants.delete(code);
    const verifier = form.get('code_verifier');
    if (
      !grant ||
      grant.expiresAt < Date.now() ||
      grant.clientId !== client.id ||
      grant.redirectUri !== form.get('redirect_uri') ||
      !verifier ||
      pkceChallenge(verifier) !== grant.codeChallenge
    ) {
      sendJson(res, 400, { error: 'invalid_grant' });
      return;
    }
    sendJson(res, 200, {
      access_token: randomBytes(24).toString('base64url'),
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      id_token: await sign(claimsOf(grant.user, grant.clientId, grant.nonce)),
    });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const route = `${req.method ?? ''} ${url.pathname}`;
    const handle = async () => {
      switch (route) {
        case 'GET /.well-known/openid-configuration':
          return sendJson(res, 200, {
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid', 'email', 'profile'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
            authorization_response_iss_parameter_supported: true,
          });
        case 'GET /jwks':
          return sendJson(res, 200, { keys: [publicJwk] });
        case 'GET /authorize':
          return authorize(url, res);
        case 'POST /token':
          return token(req, res);
        default:
          return sendJson(res, 404, { error: 'not_found' });
      }
    };
    handle().catch((error: unknown) => sendJson(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    signIdToken: (overrides = {}, signOptions) =>
      sign({ ...claimsOf(user, options.clientId), ...overrides }, signOptions),
    setUser: (next) => {
      user = next;
    },
    allowRedirectUri: (uri) => {
      redirectUris.add(uri);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
