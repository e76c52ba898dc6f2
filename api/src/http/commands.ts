import { type AuctionCommand, DomainError } from '@auction/contracts';
import type { CommandOutcome } from '@auction/engine';
import type { AppDeps } from '../app-deps';

export type Accepted = Extract<CommandOutcome, { ok: true }>;

/**
 * Sends a command through the engine. A refusal becomes a DomainError with the decider's code and
 * message; an accepted command waits (bounded) until the catalog shows it, so the next read does.
 * A lagging catalog is logged, not answered as a failure: the write is already durable.
 * With `awaitCatalog: false` the outcome is returned as soon as the command is stored; the caller
 * then answers from the outcome and keeps read-after-write another way (`AcknowledgedWrites`).
 */
export const sendCommand = async (
  deps: AppDeps,
  command: AuctionCommand,
  options: { readonly awaitCatalog?: boolean } = {},
): Promise<Accepted> => {
  const outcome = await deps.engine.send(command);
  if (!outcome.ok) throw new DomainError(outcome.rejection);
  if (options.awaitCatalog !== false) await catalogReaches(deps, outcome.position);
  return outcome;
};

/** Waits (bounded) until the catalog has applied `position`; a lag is logged, not thrown. */
export const catalogReaches = async (
  deps: AppDeps,
  position: number | undefined,
): Promise<void> => {
  // While the read models catch up at start nobody waits for them: reads answer 503 until then.
  if (position === undefined || !deps.readiness.isReady()) return;
  await deps.runner
    .waitFor(position, ['catalog'], 2000)
    .catch((error: unknown) => deps.log('The catalog is behind a committed write', error));
};
