import {
  type AuctionView,
  type BidView,
  type PublicUser,
  auctionStream,
  categoryStream,
} from '@auction/contracts';
import { type PageRequest, bidViewsPage, bidsPageOf, viewerView } from '@auction/projections';
import type { AppDeps } from '../../../app-deps';
import { auctionView, usersOfView } from '../../../realtime/auction-view';

/**
 * The auction page and its bid pages answered from the engine's own state, for the time the
 * read models catch up at start (`readinessGate` lets these two reads through to here). The state
 * is the auction's committed state as its actor holds it, or as read from its snapshot and the
 * events after it (`Engine.auctionState`), never a scan of the log. The view is made by the one
 * builder the realtime gateway uses (`realtime/auction-view.ts`, the catalog's `auctionView`), with
 * the names from the account store as the catalog's views have them, so a reader sees exactly what
 * the catalog shows once it reaches the same revision.
 */

type Deps = Pick<AppDeps, 'engine' | 'events' | 'users' | 'imageUrl'>;

/** The data of a stream's first event (an auction's creation, a category's), if any. */
const firstEventData = async (
  deps: Deps,
  streamId: string,
): Promise<Record<string, unknown> | undefined> => {
  const [first] = await deps.events.readStream(streamId, { toRevision: 0 });
  return first?.data as Record<string, unknown> | undefined;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The auction as `auctionDetail` shows it (with `viewerId`'s own fields), or undefined if unknown. */
export const auctionDetailFromEngine = async (
  deps: Deps,
  auctionId: string,
  viewerId?: string,
): Promise<AuctionView | undefined> => {
  const held = await deps.engine.auctionState(auctionId);
  if (!held) return undefined;
  const { state, revision } = held;
  const ids = usersOfView(state);
  const [created, category, users] = await Promise.all([
    firstEventData(deps, auctionStream(auctionId)),
    state.categoryId ? firstEventData(deps, categoryStream(state.categoryId)) : undefined,
    ids.length === 0 ? new Map<string, PublicUser>() : deps.users.lookup(ids),
  ]);
  const view = auctionView(
    state,
    revision,
    { createdAt: text(created?.at), categoryName: text(category?.name) },
    users,
    deps.imageUrl,
  );
  if (viewerId === undefined) return view;
  const answered = state.bidders.get(viewerId)?.answered === true;
  const mine = [...state.bids.values()]
    .filter((bid) => bid.bidderId === viewerId)
    .map((bid) => ({ ...bid, answered }));
  return { ...view, viewer: viewerView(state, viewerId, mine) };
};

/** A page of the auction's standing bids as `auctionBidsPage` gives it, or undefined if unknown. */
export const auctionBidsFromEngine = async (
  deps: Deps,
  auctionId: string,
  page: PageRequest,
): Promise<{ items: BidView[]; nextCursor: string | null } | undefined> => {
  const held = await deps.engine.auctionState(auctionId);
  if (!held) return undefined;
  const { state } = held;
  const standing = [...state.bids.values()]
    .filter((bid) => !bid.retracted)
    .map((bid) => ({ ...bid, auctionId }));
  const { bids, nextCursor } = bidsPageOf(standing, page);
  return bidViewsPage(bids, state.leadingBidId, nextCursor, deps.users);
};
