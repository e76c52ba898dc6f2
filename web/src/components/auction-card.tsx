import type { AuctionView } from '@auction/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuctionImage } from './auction-image';
import { Badge, auctionStatusTone } from './status';
import { formatDate, formatMoney } from '../lib/format';
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

/** One auction in a grid: picture, title, description, category, prices, seller and links. */
export const AuctionCard = ({
  auction,
  actions,
  headingLevel: Heading = 'h3',
  showStatus = false,
  onWatchChange,
}: AuctionCardProps) => {
  const href = `/auction/${auction._id}`;
  const sellerName = `${auction.seller.firstName} ${auction.seller.lastName}`.trim();
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
            <dt>Starting price</dt>
            <dd className="auction-card-price">{formatMoney(auction.startingPrice)}</dd>
          </div>
          {auction.currentBid > 0 && (
            <div>
              <dt>Current bid</dt>
              <dd>{formatMoney(auction.currentBid)}</dd>
            </div>
          )}
          <div className="fact-wide">
            <dt>Seller</dt>
            <dd>{sellerName}</dd>
          </div>
          <div className="fact-wide">
            <dt>{auction.status === 'Live' ? 'Ends' : 'Ended'}</dt>
            <dd>
              <time dateTime={auction.auctionEndTime}>{formatDate(auction.auctionEndTime)}</time>
            </dd>
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
