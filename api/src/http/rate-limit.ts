import { errorCatalog } from '@auction/contracts';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
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

/** The client's address; an IPv6 client counts as its /56, so hopping addresses does not help. */
export const clientAddress = (req: Request): string =>
  ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
