import type { AuctionView } from '@auction/contracts';
import { Avatar } from '../../../components/avatar';
import { Icon, type IconName } from '../../../components/icons';
import { Badge, auctionStatusTone } from '../../../components/status';
import { WatchButton } from '../../../components/watch-button';
import { STALE_BADGE, type Staleness } from './link-state';
import { nameOf } from './use-auction-detail';

const PERKS: readonly { icon: IconName; text: string }[] = [
  { icon: 'rotate', text: 'Free Return' },
  { icon: 'truck', text: 'Fast and Secure Shipping' },
  { icon: 'trend', text: 'Trending Auction - High Demand!' },
];

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

/**
 * Status, category, title with the watch star, the seller, and the item's description. While the
 * page may be out of date the status badge says so instead of "Live".
 */
export const AuctionHeader = ({
  auction,
  staleness,
}: {
  auction: AuctionView;
  staleness: Staleness;
}) => {
  const sellerName = nameOf(auction.seller);
  return (
    <>
      <div className="row detail-tags">
        {staleness ? (
          <Badge tone="amber">{STALE_BADGE[staleness]}</Badge>
        ) : (
          <Badge tone={auctionStatusTone(auction.status)}>{auction.status}</Badge>
        )}
        <span className="badge badge-brand">{auction.category.name}</span>
      </div>
      <div className="detail-title-row">
        <h1 className="detail-title">{auction.title}</h1>
        <WatchButton auctionId={auction._id} title={auction.title} watching={auction.watching} />
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
    </>
  );
};
