import type { AuctionView } from '@auction/contracts';
import { Link } from 'react-router';
import type { AuctionStanding } from './use-auction-detail';

const AUDIT_ROLES = new Set(['Auditor', 'Admin']);

/** Edit Auction for its seller while bidding is open; the audit timeline for its seller and auditors. */
export const SellerControls = ({
  auction,
  standing: { user, isSeller, biddingOpen },
}: {
  auction: AuctionView;
  standing: AuctionStanding;
}) => (
  <>
    {isSeller && biddingOpen && (
      <Link
        className="btn btn-ghost"
        to={`/dashboard/edit-auction/${auction._id}`}
        state={{ auction }}
      >
        Edit Auction
      </Link>
    )}
    {user && (isSeller || AUDIT_ROLES.has(user.role)) && (
      <Link className="btn btn-ghost" to={`/audit/auction/${auction._id}`}>
        Audit timeline
      </Link>
    )}
  </>
);
