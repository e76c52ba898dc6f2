import { Link } from 'react-router';

export const AuctionNotFound = () => (
  <section className="page narrow center detail-state">
    <h1>Auction not found</h1>
    <p className="muted">
      This auction does not exist or is no longer available. It may have been removed by its seller.
    </p>
    <Link className="btn btn-primary" to="/auctions">
      Browse Auctions
    </Link>
  </section>
);

export const AuctionLoadFailed = ({ onRetry }: { onRetry: () => void }) => (
  <section className="page narrow center detail-state">
    <h1>We could not load this auction</h1>
    <p className="muted">Check your connection and try again.</p>
    <div className="row detail-state-actions">
      <button type="button" className="btn btn-primary" onClick={onRetry}>
        Try again
      </button>
      <Link className="btn btn-ghost" to="/auctions">
        All auctions
      </Link>
    </div>
  </section>
);
