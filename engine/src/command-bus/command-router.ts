import type { CommandBus } from './command-bus';

/**
 * Where an auction's commands are decided. In one process every auction's actor is local; in a
 * cluster each auction belongs to exactly one node at a time (the owner of its partition), and any
 * node may send: the router carries the command to the owner and its outcome back.
 */
export interface CommandRouter extends CommandBus {
  /** Whether this node runs the auction's actor now (its closing is this node's duty). */
  owns(auctionId: string): boolean;
  /** Calls `listener` after every change of what this node owns; returns how to stop. */
  onOwnershipChange(listener: () => void): () => void;
}
