import { type AuctionCommand, type AuctionEvent, auctionStream } from '@auction/contracts';
import { decide } from '../auction/decide';
import { evolve } from '../auction/evolve';
import { initialState } from '../auction/state';
import { genesisHash } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import type { EventStore } from '../event-store/event-store';

// What other workspaces' tests and benchmarks use of the engine beyond its face: the decider
// itself, the hash of one event, the partition a key lands on, the event store's input.
export { decide } from '../auction/decide';
export { eventHash } from '../chain/hash-chain';
export { partitionOf } from '../cluster/partitioner';
export type { NewEvent } from '../event-store/event-store';

/**
 * Test support for other workspaces: decides commands for one auction with the real decider and
 * appends every accepted event, sealed into the hash chain, as an actor would but without one
 * (so a test can write a history at business times of its choosing). Returns the events.
 */
export const recordCommands = async (
  store: Pick<EventStore, 'append'>,
  auctionId: string,
  commands: readonly AuctionCommand[],
): Promise<AuctionEvent[]> => {
  const stream = auctionStream(auctionId);
  const decided: AuctionEvent[] = [];
  let state = initialState;
  let prevHash = genesisHash(stream);
  for (const command of commands) {
    const decision = decide(command, state);
    if (!decision.ok || decision.events.length === 0) continue;
    const revision = decided.length - 1;
    const sealed = sealEvents(stream, revision, prevHash, decision.events, command.metadata);
    await store.append(stream, sealed.events, revision < 0 ? 'no_stream' : revision);
    prevHash = sealed.headHash;
    for (const event of decision.events) {
      state = evolve(state, event);
      decided.push(event);
    }
  }
  return decided;
};
