import type { AuctionView, BidView, SoftClose } from '@auction/contracts';
import { useMemo } from 'react';
import { Avatar } from '../../../components/avatar';
import { Badge } from '../../../components/status';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { AuctionEnded, bidCountNote, priceLabel } from './closed-state';
import { Countdown } from './countdown';
import './closed-state.css';
import { nameOf, type AuctionStanding } from './use-auction-detail';

const MAX_AVATARS = 3;

/** What others may know of the reserve, as a badge. */
const RESERVE_BADGES = {
  'not-met': { tone: 'amber', text: 'Reserve not met' },
  met: { tone: 'green', text: 'Reserve met' },
} as const;

const distinctBidders = (bids: readonly BidView[]) => {
  const seen = new Map<string, BidView['bidder']>();
  for (const bid of bids) if (!seen.has(bid.bidder._id)) seen.set(bid.bidder._id, bid.bidder);
  return [...seen.values()];
};

const spanOf = (ms: number): string => {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** What the soft close means for a bidder, in their words. */
export const softCloseNote = ({ windowMs, extensionMs }: SoftClose): string =>
  `A bid in the last ${spanOf(windowMs)} extends bidding to ${spanOf(extensionMs)} after it.`;

interface PanelProps {
  auction: AuctionView;
  standing: AuctionStanding;
}

/**
 * The two price cards: where bidding started (and who bids), and where it stands; `stale` while
 * the page may be out of date (the current bid says so).
 */
export const PricePanel = ({ auction, standing, stale }: PanelProps & { stale: boolean }) => (
  <div className="price-cards">
    <StartingPriceCard auction={auction} />
    <CurrentBidCard auction={auction} standing={standing} stale={stale} />
  </div>
);

const StartingPriceCard = ({ auction }: { auction: AuctionView }) => {
  const bidders = useMemo(() => distinctBidders(auction.bids), [auction.bids]);
  const shown = bidders.slice(0, MAX_AVATARS);
  return (
    <section className="price-card" aria-labelledby="starting-price-label">
      <p id="starting-price-label" className="price-label">
        Starting Price
      </p>
      <p className="price-value">{formatMoney(auction.startingPrice)}</p>
      {bidders.length > 0 ? (
        <div
          className="avatar-stack"
          role="group"
          aria-label={`Bidders: ${shown.map(nameOf).join(', ')}`}
        >
          {shown.map((bidder) => (
            <Avatar key={bidder._id} name={nameOf(bidder)} imageUrl={bidder.image?.url} size={34} />
          ))}
        </div>
      ) : (
        <p className="price-note">No Bid Placed Yet!</p>
      )}
      <p className="price-note">{bidCountNote(auction)}</p>
    </section>
  );
};

const CurrentBidCard = ({ auction, standing, stale }: PanelProps & { stale: boolean }) => {
  const { cancelled, isSeller } = standing;
  const reserveBadge = auction.reserve === 'none' ? null : RESERVE_BADGES[auction.reserve];
  return (
    <section className="price-card price-card-current" aria-labelledby="current-bid-label">
      <p id="current-bid-label" className="price-label">
        {priceLabel(auction)}
      </p>
      <p className="price-value">{formatMoney(auction.currentBid)}</p>
      {stale ? <p className="price-note price-stale-note">May be out of date</p> : null}
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
        <EndOfBidding auction={auction} standing={standing} />
      )}
    </section>
  );
};

/**
 * When bidding ends and the countdown, and what a late bid does under soft close; once the auction
 * is closed, that it ended and when (`closedAt`: a Buy It Now sale ends it early), no countdown.
 */
const EndOfBidding = ({ auction, standing: { biddingOpen, now } }: PanelProps) =>
  auction.status !== 'Live' ? (
    <AuctionEnded auction={auction} />
  ) : (
    <>
      <p className="price-note">
        {biddingOpen ? 'Ends' : 'Ended'}{' '}
        <time dateTime={auction.auctionEndTime}>{formatDateTime(auction.auctionEndTime)}</time>
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
  );
