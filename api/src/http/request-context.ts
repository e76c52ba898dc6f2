import type {} from 'passport';
import { createHash, randomUUID } from 'node:crypto';
import { type CommandMetadata, DomainError, Id, rejection } from '@auction/contracts';
import { canonicalJson } from '@auction/engine';
import type { Request, RequestHandler } from 'express';
import type { Account } from '../accounts/account';
import type { AppDeps } from '../app-deps';
import { uploadDigest } from './middleware/image-upload';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends Account {}
  }
}

/** The signed-in account, or a 401. */
export const currentUser = (req: Request): Account => {
  if (!req.user) throw new DomainError(rejection('UNAUTHENTICATED'));
  return req.user;
};

/** Refuses an anonymous request (401) before anything reads its body. */
export const requireLogin: RequestHandler = (req, _res, next) => {
  currentUser(req);
  next();
};

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,100}$/;

/** The request's `Idempotency-Key` header, if it has one; a malformed one is a 400. */
const idempotencyKey = (req: Request): string | undefined => {
  const key = req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new DomainError(
      rejection(
        'VALIDATION_FAILED',
        { fields: { 'Idempotency-Key': 'letters, digits, ".", "_", ":" or "-", 1 to 100' } },
        'Idempotency-Key must be 1 to 100 letters, digits, ".", "_", ":" or "-"',
      ),
    );
  }
  return key;
};

/**
 * A new id for what the request creates (`what`: a command, an auction, a bid), random; or, when
 * the client sent an `Idempotency-Key`, derived from the user, the route, `what` and the key, so
 * that a retry of the request (say after a 503) names the same command and the same new auction
 * or bid, and the engine answers it with the first attempt's outcome instead of acting twice.
 */
export const newId = (req: Request, actorId: string, what: string): string => {
  const key = idempotencyKey(req);
  if (key === undefined) return randomUUID();
  const bytes = createHash('sha256')
    .update([actorId, req.method, `${req.baseUrl}${req.path}`, what, key].join('\n'))
    .digest()
    .subarray(0, 16);
  // Shaped as a UUID (version 8, "custom"), like the random ones.
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * What a request with an `Idempotency-Key` asks, as a digest: its route, its body's fields (in any
 * key order) and its image's content. The engine refuses the key sent again with another digest.
 */
const requestDigest = (req: Request): string =>
  createHash('sha256')
    .update(
      canonicalJson({
        body: (req.body as unknown) ?? null,
        image: uploadDigest(req),
        route: `${req.method} ${req.baseUrl}${req.path}`,
      }),
    )
    .digest('hex');

/**
 * Who, when and under which ids: the metadata every command carries. `target` names what the
 * command acts on where the route's path does not (the auction of a new bid), so one
 * Idempotency-Key reused on another target is another command; the same key with another request
 * on the same target is refused (`requestDigest`).
 */
export const commandMetadata = (
  req: Request,
  deps: AppDeps,
  actorId: string,
  target = '',
): CommandMetadata => {
  const supplied = req.header('x-correlation-id');
  return {
    commandId: newId(req, actorId, `command:${target}`),
    actorId,
    correlationId: supplied && Id.safeParse(supplied).success ? supplied : randomUUID(),
    at: new Date(deps.clock.now()).toISOString(),
    ...(idempotencyKey(req) === undefined ? {} : { requestDigest: requestDigest(req) }),
  };
};
