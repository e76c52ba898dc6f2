import {
  type AuditEvent,
  type AuditPoint,
  type AuditState,
  AuctionEvent,
  DomainError,
  type PublicUser,
  bidView,
  centsToDollars,
  rejection,
  standingOrder,
  deletedUser,
} from '@auction/contracts';
import { type AuctionState, type BidState, evolve, initialState } from '@auction/engine';
import {
  type ImageUrl,
  type UserDirectory,
  imageView,
  storedImagePath,
} from '@auction/projections';

export interface FoldedState {
  readonly state: AuctionState;
  /** The last event folded in, undefined when none is. */
  readonly reached: AuditEvent | undefined;
}

export const unreadable = (revision: number): DomainError =>
  new DomainError(
    rejection(
      'EVENT_UNREADABLE',
      { revision },
      `Revision ${revision} is not a valid auction event, so the state cannot be folded through it; verify the auction`,
    ),
  );

/**
 * Folds the stream's events with the engine's `evolve` up to the point: through `revision`
 * inclusive, or through the events whose business time is at or before `at` (business time
 * never goes backwards in a stream, so those are a prefix; the fold stops at the first later one).
 */
export const foldTo = (events: readonly AuditEvent[], point: AuditPoint): FoldedState => {
  let state = initialState;
  let reached: AuditEvent | undefined;
  for (const event of events) {
    if (point.revision !== undefined && event.revision > point.revision) break;
    const parsed = AuctionEvent.safeParse({ type: event.type, data: event.data });
    if (!parsed.success) throw unreadable(event.revision);
    if (point.at !== undefined && parsed.data.data.at > point.at) break;
    state = evolve(state, parsed.data);
    reached = event;
  }
  return { state, reached };
};

/** Standing bids in the order every view lists them (the leading bid first among equals). */
const standingBids = (state: AuctionState): BidState[] =>
  standingOrder(
    [...state.bids.values()].filter((bid) => !bid.retracted),
    state.leadingBidId,
    (bid) => ({ id: bid.bidId, amount: bid.amount, placedAt: bid.placedAt }),
  );

export interface StateContext {
  readonly auctionId: string;
  readonly lastRevision: number | null;
  readonly categoryName: string | null;
  readonly users: UserDirectory;
  /** How the auction's image is written (default: the stored path). */
  readonly imageUrl?: ImageUrl;
  /** Auditors and admins see each standing bid's maximum; a seller (the default) does not. */
  readonly maxima?: boolean;
}

/** The folded state as the audit routes answer it: dollars, names joined from the directory. */
export const toAuditState = async (
  { state, reached }: FoldedState,
  context: StateContext,
): Promise<AuditState> => {
  const bids = standingBids(state);
  const leader = state.leadingBidId === null ? undefined : state.bids.get(state.leadingBidId);
  const ids = new Set<string>(bids.map((bid) => bid.bidderId));
  for (const id of [state.sellerId, state.winnerId, leader?.bidderId]) if (id) ids.add(id);
  const users =
    ids.size === 0 ? new Map<string, PublicUser>() : await context.users.lookup([...ids]);
  const user = (id: string | null | undefined): PublicUser | null =>
    id ? (users.get(id) ?? deletedUser(id)) : null;
  return {
    auctionId: context.auctionId,
    revision: reached?.revision ?? null,
    lastRevision: context.lastRevision,
    at: reached?.at ?? null,
    status: state.status,
    title: state.title,
    description: state.description,
    category:
      state.categoryId === null ? null : { _id: state.categoryId, name: context.categoryName },
    image: imageView(state.image, context.imageUrl ?? storedImagePath),
    seller: user(state.sellerId),
    startingPrice: centsToDollars(state.startingPrice),
    endsAt: state.endsAt,
    currentBid: centsToDollars(state.currentBid),
    leadingBidId: state.leadingBidId,
    leader: user(leader?.bidderId),
    bids: bids.map((bid) => ({
      ...bidView(
        { ...bid, auctionId: context.auctionId },
        users.get(bid.bidderId) ?? deletedUser(bid.bidderId),
      ),
      ...(context.maxima ? { maxAmount: centsToDollars(bid.maxAmount) } : {}),
    })),
    reservePrice: state.reservePrice === null ? null : centsToDollars(state.reservePrice),
    buyNowPrice: state.buyNowPrice === null ? null : centsToDollars(state.buyNowPrice),
    winner: user(state.winnerId),
    finalPrice: state.finalPrice === null ? null : centsToDollars(state.finalPrice),
    event: reached ?? null,
  };
};
