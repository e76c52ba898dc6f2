import { errorCatalog } from '@auction/contracts';
import { rateLimit } from 'express-rate-limit';
import type { Request, RequestHandler } from 'express';
import { respond } from './respond';

/** A fixed-window limit per key; over it, a 429 with a message a person can act on. */
export const limiter = (options: {
  readonly windowMs: number;
  readonly limit: number;
  readonly key: (req: Request) => string;
  readonly message: string;
}): RequestHandler =>
  rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: options.key,
    validate: { keyGeneratorIpFallback: false },
    handler: (_req, res) => respond(res, 429, options.message || errorCatalog.RATE_LIMITED.message),
  });

export const clientAddress = (req: Request): string =>
  req.ip ?? req.socket.remoteAddress ?? 'unknown';
