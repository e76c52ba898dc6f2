import type {} from 'passport';
import { randomUUID } from 'node:crypto';
import { type CommandMetadata, DomainError, Id, rejection } from '@auction/contracts';
import type { Request } from 'express';
import type { Account } from '../accounts/account';
import type { AppDeps } from '../app-deps';

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

/** Who, when and under which ids: the metadata every command carries. */
export const commandMetadata = (req: Request, deps: AppDeps, actorId: string): CommandMetadata => {
  const supplied = req.header('x-correlation-id');
  return {
    commandId: randomUUID(),
    actorId,
    correlationId: supplied && Id.safeParse(supplied).success ? supplied : randomUUID(),
    at: new Date(deps.clock.now()).toISOString(),
  };
};
