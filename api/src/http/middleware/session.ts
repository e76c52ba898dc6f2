import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import type { Account } from '../../accounts/account';
import type { AppDeps } from '../../app-deps';
import { appendSetCookie, cookieValue } from '../cookies';
import { anyCrossSite } from '../../config/cross-origin';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in account's id (where passport kept it, so stored sessions stay valid). */
    passport?: { user?: string };
  }
}

export const SESSION_COOKIE = 'auction.sid';
const WEEK_MS = 7 * 86_400_000;
/**
 * A rolling session's cookie is sent again, and its stored expiry moved, at most this often per
 * session and process (each slides it by a week); the stores write the expiry as rarely.
 */
export const ROLL_EVERY_MS = 60_000;
/** Cookie values whose signature was verified, and sessions rolled, remembered per process. */
const REMEMBERED = 10_000;

export interface SessionOptions {
  readonly store: session.Store;
  readonly secret: string;
  /** Secure cookies (https): set only on a request that came over https. */
  readonly secure: boolean;
  /**
   * Cookies for pages of other sites too (`CORS_ORIGINS`): SameSite=None and Partitioned, which
   * browsers take only with Secure, so they are Secure whatever `secure` says; with `secure` false (an http origin on
   * localhost, which browsers hold for a secure context) they are sent over http as well.
   */
  readonly crossSite?: boolean;
  /** Whether `X-Forwarded-Proto` tells a request came over https (behind one proxy). */
  readonly trustProxy: boolean;
  /**
   * The account a session's user id names; undefined when there is none any more. Synchronous
   * where it can be (no turn of the microtask queue per request).
   */
  readonly users: (id: string) => Account | undefined | Promise<Account | undefined>;
  readonly log: (message: string, error?: unknown) => void;
  readonly now?: () => number;
  readonly maxAgeMs?: number;
}

/** A map that forgets its oldest entries beyond `max`. */
class Bounded<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  remember(key: string, value: V): void {
    if (!this.has(key) && this.size >= this.max) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    this.set(key, value);
  }
}

/** `value.signature`, the HMAC-SHA256 of the value in base64 without padding (cookie-signature's). */
const sign = (value: string, secret: string): string =>
  `${value}.${createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')}`;

type SessionConstructor = new (
  req: IncomingMessage,
  data?: object,
) => session.Session & Partial<session.SessionData>;
type CookieConstructor = new (options?: object) => session.Cookie;
const BaseSession = session.Session as unknown as SessionConstructor;
const Cookie = session.Cookie as unknown as CookieConstructor;

/** express-session's `Cookie` writes itself as a Set-Cookie value (not in its types). */
type SerializableCookie = session.Cookie & { serialize(name: string, value: string): string };
type Touch = (sid: string, sess: session.SessionData, callback: (error?: unknown) => void) => void;

/** What the session holds apart from its cookie, as a string: how a change is seen. */
const contentOf = (sess: object): string => JSON.stringify({ ...sess, cookie: undefined });
const EMPTY = '{}';

/** express-session's `Session`, remembering what it held when loaded or last saved. */
class TrackedSession extends BaseSession {
  #saved: string;
  constructor(req: IncomingMessage, data?: object) {
    super(req, data);
    this.#saved = contentOf(this);
  }
  override save(callback?: (error?: unknown) => void): this {
    this.#saved = contentOf(this);
    return super.save(callback);
  }
  changed(): boolean {
    return contentOf(this) !== this.#saved;
  }
  // express-session's `destroy` deletes `req.session`: that property is ours (`SESSION`), so the
  // request is told here instead.
  override destroy(callback: (error?: unknown) => void): this {
    const slot = (this as unknown as { req: Slotted }).req[SLOT];
    if (slot?.session === this) slot.session = undefined;
    return super.destroy(callback);
  }
}

/**
 * A request's session as `leanSession` keeps it: the stored data until `req.session` is first
 * read (most requests only need `req.user`), then the session object.
 */
interface Slot {
  /** The stored session, until `req.session` is first read. */
  data: session.SessionData | undefined;
  session: TrackedSession | undefined;
  /** Whether `req.session` was read or set (`session` is then the one to use). */
  materialised: boolean;
  /** Makes `session` from `data`, or a new one (the `leanSession` that took the request). */
  readonly materialise: (req: Slotted) => void;
  /** `req.session` was set (a new session, at login). */
  readonly replaced: (req: Slotted, value: TrackedSession) => void;
}
const SLOT = Symbol('lean-session');
/** `req.session` on a request no `leanSession` took (it holds whatever is set). */
const PLAIN = Symbol('session');
type Slotted = SessionRequest & { [SLOT]?: Slot; [PLAIN]?: unknown };

/**
 * `req.session`, as an accessor on the requests' prototype: defined once, where an accessor
 * defined on each request would cost every request a slow `defineProperty` and its object a
 * slower shape for every property the router and Node read afterwards.
 */
const SESSION: PropertyDescriptor & ThisType<Slotted> = {
  get() {
    const slot = this[SLOT];
    if (!slot) return this[PLAIN];
    if (!slot.materialised) slot.materialise(this);
    return slot.session;
  },
  set(value: TrackedSession) {
    const slot = this[SLOT];
    if (slot) slot.replaced(this, value);
    else this[PLAIN] = value;
  },
  configurable: true,
  enumerable: true,
};
const withAccessor = new WeakSet<object>();
/**
 * Gives the request `req.session`: on its prototype (express's, one per app: a request handed on
 * to a mounted sub-app would take that app's prototype, without it; ours mounts none), else on
 * the request itself.
 */
const defineSession = (req: Slotted) => {
  const proto = Object.getPrototypeOf(req) as object | null;
  if (proto && withAccessor.has(proto)) return;
  if (
    proto &&
    proto !== IncomingMessage.prototype &&
    proto !== Object.prototype &&
    !Object.prototype.hasOwnProperty.call(proto, 'session')
  ) {
    Object.defineProperty(proto, 'session', SESSION);
    withAccessor.add(proto);
    return;
  }
  // A bare request (a socket's handshake): on the request itself.
  Object.defineProperty(req, 'session', SESSION);
};

type SessionRequest = IncomingMessage &
  Pick<Request, 'session' | 'sessionID' | 'sessionStore' | 'user'>;

const cameOverHttps = (req: IncomingMessage, trustProxy: boolean): boolean => {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trustProxy) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
};

type CookieOptions = ReturnType<typeof cookieOptionsOf>;

const cookieOptionsOf = (options: SessionOptions) => {
  const crossSite = options.crossSite ?? false;
  return {
    httpOnly: true,
    sameSite: crossSite ? ('none' as const) : ('lax' as const),
    secure: options.secure || crossSite,
    // Kept per top-level site (CHIPS), which browsers that block third-party cookies still allow.
    partitioned: crossSite,
    maxAge: options.maxAgeMs ?? WEEK_MS,
    path: '/',
  };
};

/** The session id a signed cookie value carries, once its HMAC is verified (remembered per value). */
const cookieVerifier = (secret: string) => {
  const verified = new Bounded<string>(REMEMBERED);
  return (raw: string): string | undefined => {
    const known = verified.get(raw);
    if (known !== undefined) return known;
    let value = raw;
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
    if (!value.startsWith('s:')) return undefined;
    const signed = value.slice(2);
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const sid = signed.slice(0, dot);
    const expected = Buffer.from(sign(sid, secret));
    const given = Buffer.from(signed);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    verified.remember(raw, sid);
    return sid;
  };
};

/** How a request's session object is made: a new one (`generate`), or from stored data. */
const sessionFactory = (store: session.Store, cookieOptions: CookieOptions) => {
  // What `session.regenerate()` calls (through the store), as express-session sets it up.
  const generate = (req: SessionRequest) => {
    req.sessionID = randomBytes(24).toString('base64url');
    const fresh = new TrackedSession(req);
    fresh.cookie = new Cookie(cookieOptions);
    req.session = fresh;
  };
  (store as session.Store & { generate: (req: SessionRequest) => void }).generate = generate;

  // express-session's `Store.createSession`, into a `TrackedSession`.
  const inflate = (req: SessionRequest, data: session.SessionData) => {
    const { expires, originalMaxAge } = data.cookie as {
      expires?: unknown;
      originalMaxAge?: number;
    };
    const cookie = new Cookie(data.cookie);
    if (typeof expires === 'string') cookie.expires = new Date(expires);
    cookie.originalMaxAge = originalMaxAge ?? null;
    // The attributes are today's configuration's, not those the session was made with.
    cookie.sameSite = cookieOptions.sameSite;
    cookie.secure = cookieOptions.secure;
    (cookie as session.Cookie & { partitioned?: boolean }).partitioned = cookieOptions.partitioned;
    data.cookie = cookie;
    req.session = new TrackedSession(req, data);
  };
  return { generate, inflate };
};

/** What one request's session needs at its end, once it is watched (kept on the response). */
interface PerRequest extends Slot {
  readonly req: SessionRequest;
  readonly res: ServerResponse;
  readonly cookieId: string | undefined;
  /** The response's own `writeHead` and `end`, once they are wrapped (`watch`). */
  writeHead: ServerResponse['writeHead'] | undefined;
  end: ServerResponse['end'] | undefined;
  /** Whether this response sends the rolled cookie (once a minute per session). */
  roll: boolean;
  /** The rolled expiry still to be written to the store. */
  touchStore: boolean;
  headersDecided: boolean;
  ended: boolean;
}
const STATE = Symbol('session');
type WithState = ServerResponse & { [STATE]: PerRequest };

/**
 * `watch(state)`: from then on the response sets the session's cookie and stores its changes.
 * Called once the session was read or replaced (it may change), or its cookie is due to roll.
 * Until then nothing can have changed and no cookie is due, and the response is left alone.
 */
const responseWatcher = (options: SessionOptions, now: () => number, rolledAt: Bounded<number>) => {
  const { store, secret, log } = options;
  // Before the headers go: the cookie of a new session that holds something, or the rolled one.
  const setCookie = (res: ServerResponse, state: PerRequest) => {
    const { req } = state;
    const sess = req.session as TrackedSession | undefined;
    if (!sess) return;
    const isNew = req.sessionID !== state.cookieId;
    if (isNew ? contentOf(sess) === EMPTY : !state.roll) return;
    if (options.secure && !cameOverHttps(req, options.trustProxy)) return;
    if (!isNew) {
      sess.touch();
      state.touchStore = true;
    }
    rolledAt.remember(req.sessionID, now());
    const cookie = (sess.cookie as SerializableCookie).serialize(
      SESSION_COOKIE,
      `s:${sign(req.sessionID, secret)}`,
    );
    appendSetCookie(res, cookie);
  };

  function writeHead(this: WithState, ...args: unknown[]) {
    const state = this[STATE];
    if (!state.headersDecided) {
      state.headersDecided = true;
      setCookie(this, state);
    }
    return (state.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  }

  // A changed session is stored before the answer goes, so the next request finds it.
  function end(this: WithState, ...args: unknown[]) {
    const state = this[STATE];
    const original = state.end as (...a: unknown[]) => ServerResponse;
    if (state.ended) return original.apply(this, args);
    state.ended = true;
    const { req } = state;
    const sess = req.session as TrackedSession | undefined;
    if (sess?.changed()) {
      sess.save((error) => {
        if (error) log('A session could not be saved', error);
        original.apply(this, args);
      });
      return this;
    }
    const done = original.apply(this, args);
    if (state.touchStore && sess && req.sessionID === state.cookieId)
      (store.touch as Touch)?.call(store, req.sessionID, sess, (error) => {
        if (error) log('A session could not be touched', error);
      });
    return done;
  }

  return (state: PerRequest) => {
    if (state.end) return;
    const res = state.res as WithState;
    // Called back with the response as `this` (writeHead and end above).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    state.writeHead = res.writeHead;
    // eslint-disable-next-line @typescript-eslint/unbound-method
    state.end = res.end;
    res[STATE] = state;
    res.writeHead = writeHead as unknown as WithState['writeHead'];
    res.end = end as unknown as WithState['end'];
  };
};

/**
 * Puts the session's account on `req.user`, then calls `next`: an account that no longer exists
 * leaves the request anonymous and the session without a user, as passport did.
 */
const signIn = (
  users: SessionOptions['users'],
  req: SessionRequest,
  userId: string,
  next: (error?: unknown) => void,
): void => {
  const signedIn = (account: Account | undefined) => {
    if (account) req.user = account;
    else delete req.session.passport?.user;
    next();
  };
  let found: ReturnType<SessionOptions['users']>;
  try {
    found = users(userId);
  } catch (lookupError) {
    next(lookupError);
    return;
  }
  if (found instanceof Promise) found.then(signedIn, (lookupError: unknown) => next(lookupError));
  else signedIn(found);
};

/**
 * Server-side sessions with express-session's stores and signed cookie, the account on `req.user`,
 * cheaper per request than express-session and passport: a cookie's HMAC is verified once per
 * value, the session read through `deps.sessions` (memory, dropped on every node before a logout is
 * answered) and written only when it changed, the rolling expiry moved at most once a minute.
 */
export const leanSession = (options: SessionOptions): RequestHandler => {
  const { store } = options;
  const now = options.now ?? Date.now;
  const verifiedId = cookieVerifier(options.secret);
  const { generate, inflate } = sessionFactory(store, cookieOptionsOf(options));
  const rolledAt = new Bounded<number>(REMEMBERED);
  const watch = responseWatcher(options, now, rolledAt);

  function materialise(this: PerRequest, req: Slotted) {
    this.materialised = true;
    if (this.data) inflate(req, this.data);
    else generate(req);
  }
  function replaced(this: PerRequest, _req: Slotted, value: TrackedSession) {
    this.materialised = true;
    this.data = undefined;
    this.session = value;
    watch(this);
  }

  return (expressReq, expressRes, next) => {
    const req = expressReq as unknown as Slotted;
    if (req[SLOT] || req.session) return next();
    req.sessionStore = store as Request['sessionStore'];
    const raw = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const cookieId = raw === undefined ? undefined : verifiedId(raw);
    const state: PerRequest = {
      data: undefined,
      session: undefined,
      materialised: false,
      materialise,
      replaced,
      req,
      res: expressRes,
      cookieId,
      writeHead: undefined,
      end: undefined,
      roll: false,
      touchStore: false,
      headersDecided: false,
      ended: false,
    };
    defineSession(req);
    req[SLOT] = state;

    if (cookieId === undefined) return next();
    store.get(cookieId, (error, data) => {
      if (error) return next(error);
      if (!data) return next();
      req.sessionID = cookieId;
      state.data = data;
      if (now() - (rolledAt.get(cookieId) ?? 0) >= ROLL_EVERY_MS) {
        state.roll = true;
        watch(state);
      }
      const userId = data.passport?.user;
      if (typeof userId !== 'string') return next();
      signIn(options.users, req, userId, next);
    });
  };
};

/** The app's sessions: the configured store and secret, accounts from the (cached) account store. */
export const sessionMiddleware = (deps: AppDeps): RequestHandler =>
  leanSession({
    store: deps.sessions,
    secret: deps.sessionSecret,
    secure: deps.origin.startsWith('https:'),
    // Clients of other sites (CORS_ORIGINS) need the cookie on their requests: SameSite=None.
    crossSite: anyCrossSite(deps.origin, deps.config.CORS_ORIGINS ?? []),
    trustProxy: deps.config.TRUST_PROXY,
    users: (id) => (deps.accounts.byIdNow ? deps.accounts.byIdNow(id) : deps.accounts.byId(id)),
    log: deps.log,
  });

/**
 * Logs the account in on a fresh session id (no session fixation): the previous session is
 * destroyed, the new one holds the account id (where passport kept it) and is stored before the
 * answer, and `req.user` is the account.
 */
export const startSession = (req: Request, account: Account): Promise<void> =>
  new Promise((resolve, reject) =>
    req.session.regenerate((regenerateError) => {
      if (regenerateError) return reject(regenerateError as Error);
      req.session.passport = { user: account.id };
      req.session.save((saveError) => {
        if (saveError) return reject(saveError as Error);
        req.user = account;
        resolve();
      });
    }),
  );

/** Ends the request's session: it is destroyed in the store; the caller removes its cookie. */
export const endSession = (req: Request): Promise<void> =>
  new Promise((resolve, reject) => {
    req.user = undefined;
    req.session.destroy((destroyError) =>
      destroyError ? reject(destroyError as Error) : resolve(),
    );
  });
