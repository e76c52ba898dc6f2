import type {
  AuctionCommand,
  AuctionEvent,
  AuctionStatus,
  EventMetadata,
  Rejection,
} from '@auction/contracts';

/** An event as committed for a command: its stream revision and sealed metadata. */
export type CommittedEvent = AuctionEvent & {
  readonly id: string;
  readonly revision: number;
  readonly metadata: EventMetadata;
};

/**
 * A bidding command's own bid (named by its first event: a placement, raise, maximum raise or
 * retraction) as it stands once the command's events are folded. Money in cents.
 */
export interface OutcomeBid {
  readonly bidId: string;
  readonly bidderId: string;
  /** After the command: an automatic bid the command called for may have raised it. */
  readonly amount: number;
  /** The bidder's maximum (the amount for a bid without one). */
  readonly maxAmount: number;
  /** When the bid was first placed. */
  readonly placedAt: string;
  /** Whether an automatic bid set `amount` last. */
  readonly automatic: boolean;
  readonly retracted: boolean;
  /** Stream revision of the command's first event, the bidder's own entry for the bid. */
  readonly entryRevision: number;
  /** The amount that entry left the bid at, before any automatic bid the command called for. */
  readonly entryAmount: number;
  /** The end the command moved the auction to (soft close); absent when the end stayed. */
  readonly endsAt?: string;
}

/** What a caller learns once its command's events are committed (or that it was refused). */
export type CommandOutcome =
  | {
      readonly ok: true;
      readonly auctionId: string;
      /** The committed events (empty for an idempotent no-op such as a second close). */
      readonly events: readonly CommittedEvent[];
      /** Stream revision after the command (-1: the stream does not exist). */
      readonly revision: number;
      /**
       * Global position at or after this command's events (for read-your-writes); none for a no-op.
       * It is the position of the last event of the append that carried the command; a redelivery
       * answered by an actor that learned the command from the stream (after a reload, or written
       * by another node) gets the position of the command's own last event instead, which is the
       * same whenever the command ended its append.
       */
      readonly position: number | undefined;
      /** Current bid in cents after the command. */
      readonly currentBid: number;
      readonly leadingBidId: string | null;
      readonly status: AuctionStatus;
      /** The bid the command placed, edited, retracted or bought with; absent for other commands. */
      readonly bid?: OutcomeBid;
    }
  | { readonly ok: false; readonly auctionId: string; readonly rejection: Rejection };

/**
 * The one way to change an auction. Refusals resolve as `ok: false`; infrastructure failures reject
 * with `UNAVAILABLE`. The command id is the idempotency key: a transport may redeliver freely, and a
 * committed command is answered with its original outcome, whichever node committed it.
 */
export interface CommandBus {
  send(command: AuctionCommand): Promise<CommandOutcome>;
  /** Stops taking commands and waits for those in flight. */
  close(): Promise<void>;
}
