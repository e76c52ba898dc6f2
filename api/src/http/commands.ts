import { type AuctionCommand, DomainError } from '@auction/contracts';
import type { CommandOutcome } from '@auction/engine';
import type { AppDeps } from '../app-deps';

export type Accepted = Extract<CommandOutcome, { ok: true }>;

/**
 * Sends a command through the engine. A refusal becomes a DomainError with the decider's code and
 * message; an accepted command waits (bounded) until the catalog shows it, so the next read does.
 * A lagging catalog is logged, not answered as a failure: the write is already durable.
 */
export const sendCommand = async (deps: AppDeps, command: AuctionCommand): Promise<Accepted> => {
  const outcome = await deps.engine.send(command);
  if (!outcome.ok) throw new DomainError(outcome.rejection);
  await catalogReaches(deps, outcome.position);
  return outcome;
};

/** Waits (bounded) until the catalog has applied `position`; a lag is logged, not thrown. */
export const catalogReaches = async (
  deps: AppDeps,
  position: number | undefined,
): Promise<void> => {
  if (position === undefined) return;
  await deps.runner
    .waitFor(position, ['catalog'], 2000)
    .catch((error: unknown) => deps.log('The catalog is behind a committed write', error));
};
