import type { AuctionView } from '@auction/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuctionImage } from './auction-image';
import { Badge, auctionStatusTone } from './status';
import { formatDate, formatMoney } from '../lib/format';
import { TimeLeft, closedAtOf, closedOutcome } from './time-left';
import { WatchButton } from './watch-button';
import './auction-card.css';

interface AuctionCardProps {
  auction: AuctionView;
  /** Extra buttons or links under the card's own 'View Auction' link (e.g. Edit and Delete). */
  actions?: ReactNode;
  /** The title's heading level, so the card fits the page's heading order. */
  headingLevel?: 'h2' | 'h3';
  /** Shows the status badge on the picture (lists of live auctions do not need it). */
  showStatus?: boolean;
  /** After the user watched or unwatched it with the card's star. */
  onWatchChange?: (watching: boolean) => void;
}

/**
 * One auction in a grid: picture, title, description, category, the starting price, seller and
 * end (the spec's), and what a bidder decides by: the current bid, how many bids, and the time
 * left (or, once closed, how it ended).
 */
export const AuctionCard = ({
  auction,
  actions,
  headingLevel: Heading = 'h3',
  showStatus = false,
  onWatchChange,
}: AuctionCardProps) => {
  const href = `/auction/${auction._id}`;
  const sellerName = `${auction.seller.firstName} ${auction.seller.lastName}`.trim();
  const live = auction.status === 'Live';
  const endedAt = live ? auction.auctionEndTime : closedAtOf(auction);
  return (
    <article className="auction-card">
      <div className="auction-card-media">
        <AuctionImage url={auction.images?.url ?? auction.image?.url} alt={auction.title} />
        {showStatus && (
          <span className="auction-card-status">
            <Badge tone={auctionStatusTone(auction.status)}>{auction.status}</Badge>
          </span>
        )}
        <WatchButton
          auctionId={auction._id}
          title={auction.title}
          watching={auction.watching}
          className="auction-card-watch"
          {...(onWatchChange ? { onChange: onWatchChange } : {})}
        />
      </div>
      <div className="auction-card-body">
        <span className="auction-card-category">{auction.category.name}</span>
        <Heading className="auction-card-title" title={auction.title}>
          <Link to={href}>{auction.title}</Link>
        </Heading>
        <p className="auction-card-description">{auction.description}</p>
        <dl className="auction-card-facts">
          <div>
            <dt>Current bid</dt>
            <dd className="auction-card-price">
              {auction.bidCount > 0 ? formatMoney(auction.currentBid) : 'No bids yet'}
            </dd>
          </div>
          <div>
            <dt>Bids</dt>
            <dd className="auction-card-bids">{bidCountText(auction.bidCount)}</dd>
          </div>
          <div className="fact-wide">
            <dt>Starting price</dt>
            <dd>{formatMoney(auction.startingPrice)}</dd>
          </div>
          <div className="fact-wide">
            <dt>Seller</dt>
            <dd>{sellerName}</dd>
          </div>
          <div className="fact-wide">
            <dt>{live ? 'Ends' : 'Ended'}</dt>
            <dd>
              <time dateTime={endedAt}>{formatDate(endedAt)}</time>
            </dd>
          </div>
          <div className="fact-wide auction-card-left">
            <dt>{live ? 'Time left' : 'Outcome'}</dt>
            <dd>{live ? <TimeLeft endsAt={auction.auctionEndTime} /> : closedOutcome(auction)}</dd>
          </div>
        </dl>
        <div className="auction-card-actions">
          <Link
            className="btn btn-primary btn-sm"
            to={href}
            aria-label={`View Auction: ${auction.title}`}
          >
            View Auction
          </Link>
          {actions}
        </div>
      </div>
    </article>
  );
};

const bidCountText = (count: number) => (count === 1 ? '1 bid' : `${count} bids`);

/** A card-shaped placeholder while auctions load. */
export const AuctionCardSkeleton = () => (
  <div className="auction-card auction-card-skeleton" aria-hidden="true">
    <div className="skeleton auction-card-media" />
    <div className="auction-card-body">
      <div className="skeleton skeleton-line short" />
      <div className="skeleton skeleton-line" />
      <div className="skeleton skeleton-line" />
      <div className="skeleton skeleton-line medium" />
    </div>
  </div>
);
