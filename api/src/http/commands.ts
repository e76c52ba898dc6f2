import { type AuctionCommand, DomainError } from '@auction/contracts';
import type { CommandOutcome } from '@auction/engine';
import type { AppDeps } from '../app-deps';

export type Accepted = Extract<CommandOutcome, { ok: true }>;

/**
 * Sends a command through the engine. A refusal becomes a DomainError with the decider's code and
 * message; an accepted command is returned as soon as it is stored. The route answers from the
 * outcome and hands the client its consistency token (`ReadYourWrites.written`); a route whose
 * answer reads a read model waits for it first (`ReadYourWrites.reach`).
 */
export const sendCommand = async (deps: AppDeps, command: AuctionCommand): Promise<Accepted> => {
  const outcome = await deps.engine.send(command);
  if (!outcome.ok) throw new DomainError(outcome.rejection);
  return outcome;
};
