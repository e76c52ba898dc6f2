import { type AuctionView, type BidView, type SoftClose, rules } from '@auction/contracts';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuctionImage } from '../../components/auction-image';
import { Avatar } from '../../components/avatar';
import { Confirm } from '../../components/modal';
import { Badge, Spinner, auctionStatusTone } from '../../components/status';
import { messageOf } from '../../lib/api-client';
import { formatDateTime, formatMoney, remainingUntil } from '../../lib/format';
import { notify, withLoadingToast } from '../../lib/toast';
import { useNow } from '../../lib/use-now';
import { Icon, type IconName } from '../../components/icons';
import { useSession } from '../../lib/session/store';
import { bidsApi } from '../../lib/auctions-api';
import { BidAmountDialog, currentBidLine, highestBidLine, nextBidOf } from './bid-forms';
import { BidList, bidderName } from './bid-list';
import { Countdown } from './countdown';
import { RetractedBids } from './retracted-bids';
import { useLiveAuction } from './live-auction-store';
import { WatchButton } from '../../components/watch-button';
import './auctions.css';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_AVATARS = 3;
const AUDIT_ROLES = new Set(['Auditor', 'Admin']);

const PERKS: readonly { icon: IconName; text: string }[] = [
  { icon: 'rotate', text: 'Free Return' },
  { icon: 'truck', text: 'Fast and Secure Shipping' },
  { icon: 'trend', text: 'Trending Auction - High Demand!' },
];

const StableConfirm = memo(Confirm);

type Dialog =
  | { kind: 'place' }
  | { kind: 'edit'; bid: BidView }
  | { kind: 'maximum'; bidId: string; maxBid: number }
  | { kind: 'delete'; bid: BidView }
  | { kind: 'buyNow'; price: number };

/** What others may know of the reserve, as a badge. */
const RESERVE_BADGES = {
  'not-met': { tone: 'amber', text: 'Reserve not met' },
  met: { tone: 'green', text: 'Reserve met' },
} as const;

const nameOf = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

const distinctBidders = (bids: readonly BidView[]) => {
  const seen = new Map<string, BidView['bidder']>();
  for (const bid of bids) if (!seen.has(bid.bidder._id)) seen.set(bid.bidder._id, bid.bidder);
  return [...seen.values()];
};

const Star = ({ filled }: { filled: boolean }) => (
  <svg
    className={filled ? 'star filled' : 'star'}
    width="18"
    height="18"
    viewBox="0 0 24 24"
    aria-hidden="true"
    focusable="false"
  >
    <path d="m12 2.8 2.8 5.8 6.3.9-4.6 4.4 1.1 6.3-5.6-3-5.6 3 1.1-6.3-4.6-4.4 6.3-.9L12 2.8Z" />
  </svg>
);

const Reviews = () => (
  <div className="reviews">
    <span className="stars" role="img" aria-label="Rated 4 out of 5 stars">
      {[true, true, true, true, false].map((filled, index) => (
        <Star key={index} filled={filled} />
      ))}
    </span>
    <span className="muted">211 reviews</span>
  </div>
);

const spanOf = (ms: number): string => {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** What the soft close means for a bidder, in their words. */
export const softCloseNote = ({ windowMs, extensionMs }: SoftClose): string =>
  `A bid in the last ${spanOf(windowMs)} extends bidding to ${spanOf(extensionMs)} after it.`;

const Outcome = ({ auction }: { auction: AuctionView }) => {
  if (auction.status === 'Sold') {
    const price = formatMoney(auction.finalPrice ?? auction.currentBid);
    return (
      <div className="outcome outcome-sold" role="status">
        {auction.winner ? (
          <>
            <Avatar name={nameOf(auction.winner)} imageUrl={auction.winner.image?.url} size={40} />
            <p>
              Sold to <strong>{nameOf(auction.winner)}</strong> for <strong>{price}</strong>
              {auction.boughtNow ? ' with Buy It Now' : ''}
            </p>
          </>
        ) : (
          <p>
            Sold for <strong>{price}</strong>
          </p>
        )}
      </div>
    );
  }
  if (auction.status === 'Expired')
    return (
      <p className="outcome outcome-expired" role="status">
        {auction.reserve === 'not-met' && auction.bidCount > 0
          ? 'This auction ended without a sale: no bid reached the reserve price.'
          : 'This auction has expired without a winning bid.'}
      </p>
    );
  if (auction.status === 'Cancelled')
    return (
      <p className="outcome outcome-cancelled" role="status">
        This auction was cancelled by the seller.
      </p>
    );
  return null;
};

/** The standing bids after those shown, a page at a time, on request. */
const MoreBids = ({ auction }: { auction: AuctionView }) => {
  const loading = useLiveAuction((s) => s.loadingBids);
  const loadMoreBids = useLiveAuction((s) => s.loadMoreBids);
  if (auction.bidsNextCursor === null) return null;
  const more = auction.bidCount - auction.bids.length;
  const showMore = () =>
    void loadMoreBids().catch(() => notify.error('Cannot load more bids. Please try again.'));
  return (
    <div className="load-more">
      <button type="button" className="btn btn-ghost" disabled={loading} onClick={showMore}>
        {loading ? 'Loading…' : more > 0 ? `Show more bids (${more} more)` : 'Show more bids'}
      </button>
    </div>
  );
};

/** Spec §2 auction detail, kept live by the socket through `useLiveAuction`. */
export const AuctionDetailPage = () => {
  const { auctionId = '' } = useParams();
  const open = useLiveAuction((s) => s.open);
  const load = useLiveAuction((s) => s.load);
  const stored = useLiveAuction((s) => s.auction);
  const highlighted = useLiveAuction((s) => s.highlighted);
  const refresh = useLiveAuction((s) => s.refresh);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!auctionId) return;
    return open(auctionId);
  }, [auctionId, open, attempt]);

  useEffect(() => {
    if (load === 'failed') notify.error('Cannot fetch Auction Details');
  }, [load]);

  const auction = stored?._id === auctionId ? stored : null;

  if (auction)
    return <AuctionDetail auction={auction} highlighted={highlighted} refresh={refresh} />;
  if (load === 'missing')
    return (
      <section className="page narrow center detail-state">
        <h1>Auction not found</h1>
        <p className="muted">
          This auction does not exist or is no longer available. It may have been removed by its
          seller.
        </p>
        <Link className="btn btn-primary" to="/auctions">
          Browse Auctions
        </Link>
      </section>
    );
  if (load === 'failed')
    return (
      <section className="page narrow center detail-state">
        <h1>We could not load this auction</h1>
        <p className="muted">Check your connection and try again.</p>
        <div className="row detail-state-actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setAttempt((n) => n + 1)}
          >
            Try again
          </button>
          <Link className="btn btn-ghost" to="/auctions">
            All auctions
          </Link>
        </div>
      </section>
    );
  return <Spinner label="Loading auction" />;
};

/**
 * The viewer's bids the retraction rules still let them delete: the server names them and their
 * grace period; none in the auction's last hour, nor one an automatic bid raised since. The set
 * keeps its identity while its contents stay, so the bid list re-renders only when it changes.
 */
const useDeletableBids = (
  auction: AuctionView,
  biddingOpen: boolean,
  now: number,
): ReadonlySet<string> => {
  const lastHour = Date.parse(auction.auctionEndTime) - rules.retraction.closingMs;
  const raised = new Set(auction.bids.filter((bid) => bid.automatic).map((bid) => bid._id));
  const ids = (auction.viewer?.retractable ?? [])
    .filter(
      ({ bidId, until }) =>
        biddingOpen && !raised.has(bidId) && now < Math.min(Date.parse(until), lastHour),
    )
    .map(({ bidId }) => bidId)
    .join(' ');
  return useMemo(() => new Set(ids === '' ? [] : ids.split(' ')), [ids]);
};

interface AuctionDetailProps {
  auction: AuctionView;
  highlighted: ReadonlySet<string>;
  refresh: () => Promise<void>;
}

const AuctionDetail = ({ auction, highlighted, refresh }: AuctionDetailProps) => {
  const applyOwnBid = useLiveAuction((s) => s.applyOwnBid);
  const noteOwnMaximum = useLiveAuction((s) => s.noteOwnMaximum);
  const behind = useLiveAuction((s) => s.behind);
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const now = useNow(1000);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [deleting, setDeleting] = useState(false);

  const auctionId = auction._id;
  const remaining = remainingUntil(auction.auctionEndTime, now);
  const isLive = auction.status === 'Live';
  const cancelled = auction.status === 'Cancelled';
  const biddingOpen = isLive && remaining.totalMs > 0;
  const closingSoon = isLive && remaining.totalMs > 0 && remaining.totalMs <= DAY_MS;
  const userId = user?._id ?? null;
  const isSeller = userId !== null && userId === auction.seller._id;
  const topBid =
    auction.bids.find((bid) => bid._id === auction.leadingBidId) ?? auction.bids[0] ?? null;
  // The own bid may be on a page not loaded: the detail names it for its bidder (`viewer`).
  const hasStandingBid =
    userId !== null &&
    ((auction.viewer?.bidId ?? null) !== null || auction.bids.some((b) => b.bidder._id === userId));
  const leading = userId !== null && topBid?.bidder._id === userId;
  // The viewer's own secret maximum (only they are sent it), when it is above their bid.
  const myMaximum = auction.viewer?.maxBid ?? null;
  const myMaximumBidId = auction.viewer?.bidId ?? null;
  const showsMaximum = leading && myMaximum !== null && myMaximum > auction.currentBid;
  const reserveBadge = auction.reserve === 'none' ? null : RESERVE_BADGES[auction.reserve];
  const buyNowPrice = biddingOpen && !isSeller ? auction.buyNowPrice : null;
  const outbid = biddingOpen && hasStandingBid && !leading;
  const bidders = useMemo(() => distinctBidders(auction.bids), [auction.bids]);
  const sellerName = nameOf(auction.seller);
  const { minimum: nextMin, note } = nextBidOf(auction);
  const placeMin = auction.bidCount > 0 ? nextMin : auction.startingPrice;
  const incrementNote = auction.bidCount > 0 ? note : '';
  const latestNew = auction.bids.find((bid) => highlighted.has(bid._id));
  const deletable = useDeletableBids(auction, biddingOpen, now);

  const closeDialog = useCallback(() => setDialog(null), []);
  const startEdit = useCallback((bid: BidView) => setDialog({ kind: 'edit', bid }), []);
  const startDelete = useCallback((bid: BidView) => setDialog({ kind: 'delete', bid }), []);

  const placeBid = useCallback(
    async (amount: number, maximum?: number) => {
      const placed = await withLoadingToast(() => bidsApi.place(auctionId, amount, maximum), {
        success: 'Bid Placed',
        failure: (error) => messageOf(error, 'Cannot place Bid'),
      });
      if (!placed) return;
      setDialog(null);
      // Placed, but another bidder's secret maximum answered it at once.
      if (!placed.leading)
        notify.error(
          `Another bidder's maximum is higher: you were outbid at once. The current bid is ${formatMoney(placed.currentBid)}.`,
        );
      // Shown from the answer itself; the socket's copy of the same revision is then dropped.
      await applyOwnBid(auctionId, placed);
      // What only this bidder may see of it (whether they may still delete it) comes with a refetch.
      await refresh();
    },
    [auctionId, applyOwnBid, refresh],
  );

  const editedBid =
    dialog?.kind === 'edit'
      ? (auction.bids.find((bid) => bid._id === dialog.bid._id) ?? dialog.bid)
      : null;
  const editBid = useCallback(
    async (amount: number, maximum?: number) => {
      if (!editedBid) return;
      const change = { bidAmount: amount, maxBidAmount: maximum };
      const updated = await withLoadingToast(() => bidsApi.edit(editedBid._id, change), {
        success: 'Bid Updated Successfully',
        failure: (error) => messageOf(error, 'Cannot update bid'),
      });
      if (!updated) return;
      setDialog(null);
      noteOwnMaximum(auctionId, editedBid._id, updated.maxBid);
      await refresh();
    },
    [auctionId, editedBid, noteOwnMaximum, refresh],
  );

  const raisedMaximum = dialog?.kind === 'maximum' ? dialog : null;
  const raiseMaximum = useCallback(
    async (amount: number) => {
      if (!raisedMaximum) return;
      const change = { maxBidAmount: amount };
      const updated = await withLoadingToast(() => bidsApi.edit(raisedMaximum.bidId, change), {
        success: 'Maximum raised',
        failure: (error) => messageOf(error, 'Cannot raise your maximum'),
      });
      if (!updated) return;
      setDialog(null);
      noteOwnMaximum(auctionId, raisedMaximum.bidId, updated.maxBid);
      await refresh();
    },
    [auctionId, raisedMaximum, noteOwnMaximum, refresh],
  );

  const buying = dialog?.kind === 'buyNow' ? dialog : null;
  const [purchasing, setPurchasing] = useState(false);
  const answerBuyNow = useCallback(
    (yes: boolean) => {
      if (!yes || !buying) return setDialog(null);
      setPurchasing(true);
      void withLoadingToast(() => bidsApi.buyNow(auctionId, buying.price), {
        success: 'Purchased with Buy It Now!',
        failure: (error) => messageOf(error, 'Cannot buy this item'),
      }).then(async (bought) => {
        setPurchasing(false);
        setDialog(null);
        if (bought) await refresh();
      });
    },
    [auctionId, buying, refresh],
  );

  const deletedBid = dialog?.kind === 'delete' ? dialog.bid : null;
  const answerDelete = useCallback(
    (yes: boolean) => {
      if (!yes || !deletedBid) return setDialog(null);
      setDeleting(true);
      void withLoadingToast(() => bidsApi.remove(deletedBid._id), {
        success: 'Bid Deleted Successfully',
        failure: (error) => messageOf(error, 'Cannot delete bid'),
      }).then(async (removed) => {
        setDeleting(false);
        if (!removed) return;
        setDialog(null);
        await refresh();
      });
    },
    [deletedBid, refresh],
  );

  const onPlaceClick = () => {
    // After the login, back here to bid.
    if (!user) return void navigate('/login', { state: { from: `/auction/${auctionId}` } });
    setDialog({ kind: 'place' });
  };
  const onBuyNowClick = (price: number) => {
    if (!user) return void navigate('/login', { state: { from: `/auction/${auctionId}` } });
    setDialog({ kind: 'buyNow', price });
  };

  const editIsTop = editedBid !== null && topBid?._id === editedBid._id;

  return (
    <article className="page auction-detail">
      <nav className="detail-back" aria-label="Breadcrumb">
        <Link to="/auctions">← All auctions</Link>
      </nav>

      <div className="detail-layout">
        <div className="detail-media">
          <AuctionImage
            url={auction.image?.url ?? auction.images?.url}
            alt={auction.title}
            className="detail-image"
          />
        </div>

        <div className="detail-info">
          <div className="row detail-tags">
            <Badge tone={auctionStatusTone(auction.status)}>{auction.status}</Badge>
            <span className="badge badge-brand">{auction.category.name}</span>
          </div>
          <div className="detail-title-row">
            <h1 className="detail-title">{auction.title}</h1>
            <WatchButton
              auctionId={auction._id}
              title={auction.title}
              watching={auction.watching}
            />
          </div>
          <div className="detail-seller">
            <Avatar name={sellerName} imageUrl={auction.seller.image?.url} size={40} />
            <div>
              <p className="detail-seller-label">Seller</p>
              <p className="detail-seller-name">{sellerName}</p>
            </div>
          </div>
          <Reviews />
          <p className="detail-description">{auction.description}</p>
          <ul className="perks">
            {PERKS.map(({ icon, text }) => (
              <li key={text}>
                <Icon name={icon} size={20} />
                {text}
              </li>
            ))}
          </ul>

          {/* Always in the page, so a screen reader hears the notice when it appears. */}
          <div role="status" className="catching-up-region">
            {behind && (
              <p className="catching-up">
                Some of your recent changes are still being applied. This page will update when they
                are.
              </p>
            )}
          </div>
          {closingSoon && (
            <p className="closing-soon" role="status">
              Auction Closing soon - Place your Bid!
            </p>
          )}
          <Outcome auction={auction} />
          {isLive && remaining.totalMs === 0 && (
            <p className="outcome outcome-ending" role="status">
              Bidding has ended. The result will appear in a moment.
            </p>
          )}

          <div className="price-cards">
            <section className="price-card" aria-labelledby="starting-price-label">
              <p id="starting-price-label" className="price-label">
                Starting Price
              </p>
              <p className="price-value">{formatMoney(auction.startingPrice)}</p>
              {bidders.length > 0 ? (
                <div
                  className="avatar-stack"
                  role="group"
                  aria-label={`Bidders: ${bidders.slice(0, MAX_AVATARS).map(nameOf).join(', ')}`}
                >
                  {bidders.slice(0, MAX_AVATARS).map((bidder) => (
                    <Avatar
                      key={bidder._id}
                      name={nameOf(bidder)}
                      imageUrl={bidder.image?.url}
                      size={34}
                    />
                  ))}
                </div>
              ) : (
                <p className="price-note">No Bid Placed Yet!</p>
              )}
              <p className="price-note">
                {auction.bidCount} {cancelled ? 'bids were placed' : 'bids are live'}
              </p>
            </section>
            <section className="price-card price-card-current" aria-labelledby="current-bid-label">
              <p id="current-bid-label" className="price-label">
                Current Bid
              </p>
              <p className="price-value">{formatMoney(auction.currentBid)}</p>
              {reserveBadge && !cancelled ? (
                <p className="price-note reserve-note">
                  <Badge tone={reserveBadge.tone}>{reserveBadge.text}</Badge>
                  {isSeller && auction.viewer?.reservePrice != null
                    ? ` Your reserve: ${formatMoney(auction.viewer.reservePrice)}`
                    : null}
                </p>
              ) : null}
              {cancelled ? (
                <p className="price-note">Cancelled</p>
              ) : (
                <>
                  <p className="price-note">
                    {biddingOpen ? 'Ends' : 'Ended'}{' '}
                    <time dateTime={auction.auctionEndTime}>
                      {formatDateTime(auction.auctionEndTime)}
                    </time>
                    {auction.extended ? (
                      <>
                        {' '}
                        <Badge tone="amber">Extended</Badge>
                      </>
                    ) : null}
                  </p>
                  <Countdown endsAt={auction.auctionEndTime} now={now} />
                  {auction.softClose && biddingOpen ? (
                    <p className="price-note soft-close-note">{softCloseNote(auction.softClose)}</p>
                  ) : null}
                </>
              )}
            </section>
          </div>

          {outbid && (
            <p className="alert alert-danger outbid" role="alert">
              Someone outbid you. Increase your bid to win!
            </p>
          )}
          {biddingOpen && leading && (
            <p className="leading" role="status">
              {showsMaximum
                ? `You are the highest bidder (your maximum ${formatMoney(myMaximum)}).`
                : 'You are the highest bidder.'}
            </p>
          )}

          <div className="detail-actions">
            {cancelled ? null : isSeller ? (
              <p className="muted bid-reason">This is your auction, so you cannot bid on it.</p>
            ) : biddingOpen ? (
              <>
                <button type="button" className="btn btn-primary btn-lg" onClick={onPlaceClick}>
                  Place Bid
                </button>
                {leading && myMaximumBidId !== null && myMaximum !== null ? (
                  <button
                    type="button"
                    className="btn btn-ghost"
                    onClick={() =>
                      setDialog({ kind: 'maximum', bidId: myMaximumBidId, maxBid: myMaximum })
                    }
                  >
                    Raise maximum
                  </button>
                ) : null}
                {buyNowPrice !== null ? (
                  <button
                    type="button"
                    className="btn btn-accent btn-lg"
                    onClick={() => onBuyNowClick(buyNowPrice)}
                  >
                    Buy It Now for {formatMoney(buyNowPrice)}
                  </button>
                ) : null}
                {!user && <p className="muted bid-reason">Log in to place a bid.</p>}
              </>
            ) : (
              <>
                <button
                  type="button"
                  className="btn btn-primary btn-lg"
                  disabled
                  aria-describedby="bid-closed-reason"
                >
                  Place Bid
                </button>
                <p id="bid-closed-reason" className="muted bid-reason">
                  Bidding is closed for this auction.
                </p>
              </>
            )}
            {isSeller && biddingOpen && (
              <Link
                className="btn btn-ghost"
                to={`/dashboard/edit-auction/${auctionId}`}
                state={{ auction }}
              >
                Edit Auction
              </Link>
            )}
            {user && (isSeller || AUDIT_ROLES.has(user.role)) && (
              <Link className="btn btn-ghost" to={`/audit/auction/${auctionId}`}>
                Audit timeline
              </Link>
            )}
          </div>
        </div>
      </div>

      <section className="live-bids" aria-labelledby="live-bids-heading">
        <div className="live-bids-header">
          <h2 id="live-bids-heading">Live Auction</h2>
          {isLive && (
            <span className="live-dot" aria-hidden="true">
              Live
            </span>
          )}
        </div>
        <p className="sr-only" aria-live="polite">
          {latestNew
            ? `New bid of ${formatMoney(latestNew.amount)} by ${bidderName(latestNew)}`
            : ''}
        </p>
        <BidList
          bids={auction.bids}
          leadingBidId={auction.leadingBidId}
          highlighted={highlighted}
          userId={userId}
          canChange={biddingOpen}
          deletable={deletable}
          topLabel={auction.status === 'Sold' ? 'Winning bid' : cancelled ? null : 'Highest'}
          onEdit={startEdit}
          onDelete={startDelete}
        />
        <MoreBids auction={auction} />
        <RetractedBids retractions={auction.retractions} userId={userId} />
      </section>

      {dialog?.kind === 'place' && (
        <BidAmountDialog
          title="Place Bid"
          summary={highestBidLine(auction.currentBid)}
          label="Bid Amount"
          initialAmount=""
          min={placeMin}
          hint={`Enter ${formatMoney(placeMin)} or more.${incrementNote}`}
          submitLabel="Place Bid"
          busyLabel="Placing..."
          onSubmit={placeBid}
          onClose={closeDialog}
          maximum={{ initial: '' }}
        />
      )}
      {raisedMaximum && (
        <BidAmountDialog
          title="Raise your maximum"
          summary={`Your maximum: ${formatMoney(raisedMaximum.maxBid)}. The current bid stays ${formatMoney(auction.currentBid)}.`}
          label="New maximum"
          initialAmount=""
          min={raisedMaximum.maxBid}
          hint={`Enter more than ${formatMoney(raisedMaximum.maxBid)}. Nobody else sees it.`}
          submitLabel="Raise maximum"
          busyLabel="Raising..."
          onSubmit={raiseMaximum}
          onClose={closeDialog}
        />
      )}
      {buying && (
        <StableConfirm
          title="Buy It Now"
          question={`Buy "${auction.title}" for ${formatMoney(buying.price)}? The auction ends at once and you pay this price.`}
          onAnswer={answerBuyNow}
          busy={purchasing}
        />
      )}
      {editedBid && (
        <BidAmountDialog
          title="Edit Bid"
          summary={currentBidLine(editedBid.amount)}
          label="Edit Bid Amount"
          initialAmount={String(editedBid.amount)}
          min={editIsTop ? editedBid.amount : nextMin}
          hint={
            editIsTop
              ? `Bids can only go up: enter more than ${formatMoney(editedBid.amount)}.`
              : `Enter ${formatMoney(nextMin)} or more.${incrementNote}`
          }
          submitLabel="Update Bid"
          busyLabel="Updating..."
          onSubmit={editBid}
          onClose={closeDialog}
          maximum={{ initial: '' }}
        />
      )}
      {deletedBid && (
        <StableConfirm
          title="Delete Bid"
          question="Are you sure you want to delete this bid?"
          onAnswer={answerDelete}
          busy={deleting}
        />
      )}
    </article>
  );
};
