import type { Map as ImmutableMap } from 'immutable';
import type { AuctionEvent, Rejection, SoftClose } from '@auction/contracts';

export type AuctionStatus = 'None' | 'Live' | 'Sold' | 'Expired' | 'Cancelled';

export interface BidState {
  readonly bidId: string;
  readonly bidderId: string;
  readonly amount: number;
  readonly placedAt: string;
  readonly retracted: boolean;
}

/** What the decider knows of one auction: the fold of its events. */
export interface AuctionState {
  readonly status: AuctionStatus;
  readonly auctionId: string | null;
  readonly sellerId: string | null;
  readonly title: string;
  readonly description: string;
  readonly categoryId: string | null;
  readonly image: string | null;
  /** Cents. */
  readonly startingPrice: number;
  readonly endsAt: string | null;
  /** The soft close the auction was created with; null: its end never moves. */
  readonly softClose: SoftClose | null;
  /** Whether a bid in the soft-close window has moved the end. */
  readonly extended: boolean;
  /** Every bid ever placed, retracted ones kept and marked (persistent map: cheap to evolve). */
  readonly bids: ImmutableMap<string, BidState>;
  /** Highest non-retracted amount in cents, 0 when none. */
  readonly currentBid: number;
  readonly leadingBidId: string | null;
  /** Business time of the last event: event times never go backwards within a stream. */
  readonly lastAt: string | null;
  readonly winnerId: string | null;
  readonly finalPrice: number | null;
}

export type Decision =
  | { readonly ok: true; readonly events: readonly AuctionEvent[] }
  | { readonly ok: false; readonly rejection: Rejection };
