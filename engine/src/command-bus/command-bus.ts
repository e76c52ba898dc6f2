import type { AuctionCommand, AuctionEvent, Rejection } from '@auction/contracts';
import type { RecordedEvent } from '../event-store/event-store';

/** What a caller learns once its command's events are committed (or that it was refused). */
export type CommandOutcome =
  | {
      readonly ok: true;
      readonly auctionId: string;
      /** The committed events (empty for an idempotent no-op such as a second close). */
      readonly events: readonly (RecordedEvent & AuctionEvent)[];
      /** Stream revision after the command (-1: the stream does not exist). */
      readonly revision: number;
      /** Global position of the last committed event (for read-your-writes), if any. */
      readonly position: number | undefined;
      /** Current bid in cents after the command. */
      readonly currentBid: number;
      readonly leadingBidId: string | null;
      readonly status: string;
    }
  | { readonly ok: false; readonly auctionId: string; readonly rejection: Rejection };

/**
 * The one way to change an auction. Domain refusals resolve as `ok: false`; infrastructure failures
 * (store down, shutdown) reject the promise with a `DomainError` of code `UNAVAILABLE`.
 */
export interface CommandBus {
  send(command: AuctionCommand): Promise<CommandOutcome>;
  /** Stops taking commands and waits for those in flight. */
  close(): Promise<void>;
}
