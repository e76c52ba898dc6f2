import type { Map as ImmutableMap } from 'immutable';
import type { AuctionEvent, FoldedSummary, Rejection } from '@auction/contracts';

export interface BidState {
  readonly bidId: string;
  readonly bidderId: string;
  /** The visible amount, in cents. */
  readonly amount: number;
  /** The secret maximum the system bids up to (the amount itself for a bid without one). */
  readonly maxAmount: number;
  /** When the maximum was set, as the auction's count of maxima so far: on equal maxima the earlier leads. */
  readonly maxSeq: number;
  readonly placedAt: string;
  /** When its bidder last entered it: placed it, raised its amount or raised its maximum. */
  readonly enteredAt: string;
  readonly retracted: boolean;
  /** When it was retracted, null while it stands. */
  readonly retractedAt: string | null;
  /** Whether an automatic bid set `amount` last. */
  readonly automatic: boolean;
  /**
   * Whether its bidder can no longer retract it: an automatic bid raised it (its price answered a
   * rival's maximum or the reserve), or its placement, raise or automatic bid moved the end.
   */
  readonly bound: boolean;
}

/** What one bidder has done on one auction that limits their retractions. */
export interface BidderState {
  /** Bids they retracted themselves (an account deletion's retractions do not count). */
  readonly retractions: number;
  /** Whether another's maximum answered one of their bids or raises at once (outbid at once). */
  readonly answered: boolean;
}

/**
 * What the decider knows of one auction: the fold of its events. The summary every reader shares
 * (`summaryChange`), and what only the decider needs: each bid, the proxy ranking, the bidders'
 * retraction limits.
 */
export interface AuctionState extends FoldedSummary {
  /** How many maxima have been set: the next one's `maxSeq`. */
  readonly maxSeq: number;
  /** The standing bid that ranks first by maximum (earlier on equal ones), and the second. */
  readonly rankFirst: string | null;
  readonly rankSecond: string | null;
  /** The end `AuctionEndingSoon` was last announced for (watchlist), null: never. */
  readonly endingSoonFor: string | null;
  /** Every bid ever placed, retracted ones kept and marked (persistent map: cheap to evolve). */
  readonly bids: ImmutableMap<string, BidState>;
  /** What the retraction rules remember of each bidder who needs it (absent: nothing yet). */
  readonly bidders: ImmutableMap<string, BidderState>;
  /**
   * The bidder whose bid, raise or maximum raise is the last event folded (null after any other
   * event): an automatic bid for someone else right after it answered them at once.
   */
  readonly lastEntryBy: string | null;
  /** Business time of the last event: event times never go backwards within a stream. */
  readonly lastAt: string | null;
}

export type Decision =
  | { readonly ok: true; readonly events: readonly AuctionEvent[] }
  | { readonly ok: false; readonly rejection: Rejection };
