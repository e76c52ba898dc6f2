import { DomainError, READ_MODELS_BEHIND_HEADER, rejection } from '@auction/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../../app-deps';
import { appendSetCookie, cookieValue } from '../cookies';

/**
 * The consistency token: the log position of the client's last write, sent back on every answer
 * to a write (this header, and the cookie below), and read from every request (the header or the
 * cookie, the higher).
 */
export const TOKEN_HEADER = 'Consistency-Token';
/** The same token, kept with the session's cookie, so clients that only keep cookies have it. */
export const TOKEN_COOKIE = 'auction.rp';
/**
 * On an answer given from read models still behind the request's token when its wait ran out:
 * their names. The answer is what they hold, without the client's latest write.
 */
export const BEHIND_HEADER = READ_MODELS_BEHIND_HEADER;
/** How long a token cookie lives: far longer than a read model's lag should ever be. */
const TOKEN_COOKIE_MAX_AGE_S = 300;
/** Positions are whole numbers of at most 15 digits (the log's global positions). */
const TOKEN = /^\d{1,15}$/;

type ReadModel = 'catalog' | 'activity' | 'winnings' | 'watchlist' | 'notifications';

/**
 * The read models a request reads, by its path (lower case, no trailing slash): none for the
 * requests that read only the log, the account and the session stores, or nothing.
 */
export const readModelsFor = (method: string, rawPath: string): readonly ReadModel[] => {
  const path = rawPath.toLowerCase().replace(/\/+$/, '');
  if (
    path === '/health' ||
    path === '/openapi.json' ||
    path.startsWith('/auth/') ||
    path.startsWith('/audit/') ||
    // The price history reads the log and the accounts only.
    (method === 'GET' && path === '/auction/history') ||
    (method === 'POST' &&
      (path === '/bid/placebid' ||
        path === '/auction/createauction' ||
        path === '/auction/createcategory'))
  )
    return [];
  if (path === '/user/profile') return ['catalog', 'activity', 'winnings', 'watchlist'];
  if (path === '/user/history') return ['catalog', 'activity'];
  if (path === '/user/winnings') return ['catalog', 'winnings'];
  if (path === '/user/watchlist' || path.startsWith('/auction/watch/'))
    return ['catalog', 'watchlist'];
  if (path.startsWith('/auction/notifications')) return ['notifications'];
  // Auction views carry the viewer's watch stars.
  return ['catalog', 'watchlist'];
};

export interface ReadYourWritesOptions {
  /** How long a read waits for read models behind its token before it answers marked. */
  readonly waitMs: number;
  /** The token cookie's attributes follow the session cookie's. */
  readonly secure: boolean;
  readonly crossSite: boolean;
}

export interface ReadYourWritesCounts {
  /** Requests that found a read model behind their token and waited. */
  readonly waited: number;
  /** Of those, the ones answered marked because the wait ran out. */
  readonly answeredBehind: number;
}

const parsed = (value: string | undefined): number | undefined =>
  value !== undefined && TOKEN.test(value) ? Number(value) : undefined;

/**
 * Read-your-writes by consistency token: a request carrying a write's position waits (at most
 * `waitMs`) only while a read model it reads is behind it, then is answered marked
 * `Read-Models-Behind`; without a token nobody waits. A token is only a position: a forged one
 * can delay its own request, never another's.
 */
export class ReadYourWrites {
  private waited = 0;
  private answeredBehind = 0;
  /** The highest log head read so far: a token at or below it needs no read of the head. */
  private knownHead = 0;
  private headRead: Promise<number> | undefined;
  private readonly cookieAttributes: string;

  constructor(
    private readonly deps: Pick<AppDeps, 'runner' | 'events' | 'readiness'>,
    private readonly options: ReadYourWritesOptions,
  ) {
    const secure = options.secure || options.crossSite;
    this.cookieAttributes = [
      `Max-Age=${TOKEN_COOKIE_MAX_AGE_S}`,
      'Path=/',
      'HttpOnly',
      options.crossSite ? 'SameSite=None' : 'SameSite=Lax',
      ...(secure ? ['Secure'] : []),
      ...(options.crossSite ? ['Partitioned'] : []),
    ].join('; ');
  }

  /**
   * The request's token: the higher of its header's and its cookie's, 0 when it has none. A header
   * that is not a position is a 400; a cookie that is not one is ignored (it is ours, or tampered).
   */
  tokenOf(req: Request): number {
    const header = req.headers[TOKEN_HEADER.toLowerCase()];
    let token = 0;
    if (header !== undefined) {
      const value = parsed(Array.isArray(header) ? header[0] : header);
      if (value === undefined) throw new DomainError(rejection('MALFORMED_CONSISTENCY_TOKEN'));
      token = value;
    }
    return Math.max(token, parsed(cookieValue(req.headers.cookie, TOKEN_COOKIE)) ?? 0);
  }

  /** After a write stored up to `position`: the answer carries the client's new token. */
  written(req: Request, res: Response, position: number | undefined): void {
    if (position === undefined) return;
    let token = position;
    try {
      token = Math.max(position, this.tokenOf(req));
    } catch {
      // A malformed header was refused before the write; nothing to keep from it.
    }
    res.setHeader(TOKEN_HEADER, String(token));
    appendSetCookie(res, `${TOKEN_COOKIE}=${token}; ${this.cookieAttributes}`);
  }

  /**
   * Waits until `names` have applied `position` (the request's token by default), at most
   * `waitMs`; when they have not by then, the answer is marked and goes on from what they hold.
   */
  async reach(
    req: Request,
    res: Response,
    names: readonly ReadModel[],
    position: number = this.tokenOf(req),
  ): Promise<void> {
    if (position === 0 || names.length === 0 || !this.deps.readiness.isReady()) return;
    const { runner } = this.deps;
    // Nearly always: the read models are past the token already.
    if (runner.reached(position, names)) return;
    // A token past the log's head (as last read, or read now) waits only for the head.
    const target = position <= this.knownHead ? position : Math.min(position, await this.head());
    if (runner.reached(target, names)) return;
    this.waited += 1;
    await runner.waitFor(target, names, this.options.waitMs).catch(() => this.behind(res, names));
  }

  /** Every request: waits as `reach` does for the read models its path reads. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      let token: number;
      try {
        token = this.tokenOf(req);
      } catch (error) {
        return next(error);
      }
      if (token === 0) return next();
      const names = readModelsFor(req.method, req.path);
      if (names.length === 0) return next();
      this.reach(req, res, names, token).then(() => next(), next);
    };
  }

  counts(): ReadYourWritesCounts {
    return { waited: this.waited, answeredBehind: this.answeredBehind };
  }

  private behind(res: Response, names: readonly ReadModel[]): void {
    this.answeredBehind += 1;
    res.setHeader(BEHIND_HEADER, names.join(', '));
  }

  /** The log's head, read now (one read for the requests asking at once); it only grows. */
  private head(): Promise<number> {
    this.headRead ??= this.deps.events
      .headPosition()
      .then((position) => {
        this.knownHead = Math.max(this.knownHead, position ?? 0);
        return this.knownHead;
      })
      .finally(() => (this.headRead = undefined));
    return this.headRead;
  }
}
