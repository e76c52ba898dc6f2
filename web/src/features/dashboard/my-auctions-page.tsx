import type { AuctionView } from '@auction/contracts';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Confirm } from '../../components/modal';
import { notify, withLoadingToast } from '../../lib/toast';
import { usePagedList } from '../../lib/use-paged-list';
import { auctionsApi } from '../../lib/auctions-api';
import { PagedAuctionGrid } from './paged-auction-grid';
import { SummaryChart } from './summary-chart';
import { salesSeries } from './summary-series';
import { refusalMessage } from '../../components/form-controls';
import { useProfile } from '../../lib/profile-store';
import './dashboard.css';

/** Edit and Delete, on a Live auction only: a sold or expired one is part of the record. */
const OwnerActions = ({
  auction,
  onEdit,
  onDelete,
}: {
  auction: AuctionView;
  onEdit: () => void;
  onDelete: () => void;
}) =>
  auction.status === 'Live' ? (
    <>
      <Link
        to={`/dashboard/edit-auction/${auction._id}`}
        state={{ auction }}
        className="btn btn-ghost btn-sm"
        aria-label={`Edit ${auction.title}`}
        onClick={onEdit}
      >
        Edit
      </Link>
      <button
        type="button"
        className="btn btn-danger btn-sm"
        aria-label={`Delete ${auction.title}`}
        onClick={onDelete}
      >
        Delete
      </button>
    </>
  ) : null;

const fetchMine = async (cursor: string | undefined) => {
  const { auctions, nextCursor } = await auctionsApi.mine({ cursor });
  // The server leaves cancelled auctions out of the seller's list.
  return { items: auctions, nextCursor };
};

/** The user's own auctions, to edit (live ones) or delete (spec §2), loaded as the user scrolls. */
export const MyAuctionsPage = () => {
  const setEditAuctionForm = useProfile((s) => s.setEditAuctionForm);
  const onError = useCallback((error: unknown) => {
    console.error(error);
    notify.error('Cannot fetch Auctions');
  }, []);
  const list = usePagedList(fetchMine, 'mine', onError);
  const { setItems: setAuctions } = list;
  const [deleting, setDeleting] = useState<AuctionView | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async (auction: AuctionView) => {
    setBusy(true);
    const result = await withLoadingToast(() => auctionsApi.remove(auction._id), {
      success: 'Auction Deleted Successfully',
      failure: (error) => refusalMessage(error, [409]) ?? 'Cannot Delete Auction',
    });
    setBusy(false);
    setDeleting(null);
    if (!result) return;
    setAuctions((items) => items.filter((a) => a._id !== auction._id));
    void useProfile.getState().load();
  };

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>My Auctions</h1>
          <p className="muted">Everything you have put up for auction.</p>
        </div>
        <Link to="/dashboard/create-auction" className="btn btn-primary">
          Create Auction
        </Link>
      </header>
      {list.items.some((auction) => auction.status === 'Sold') && (
        <SummaryChart
          title="Your sales over time"
          series={salesSeries(list.items)}
          empty="No sales yet among the auctions shown."
        />
      )}
      <PagedAuctionGrid
        list={list}
        loadingText="Loading your auctions..."
        what="your auctions"
        empty={
          <div className="empty card">
            <h2>No Auctions Yet</h2>
            <p>Put your first item up for auction and watch the bids come in.</p>
            <Link to="/dashboard/create-auction" className="btn btn-primary">
              Create Auction
            </Link>
          </div>
        }
        cardProps={(auction) => ({
          actions: (
            <OwnerActions
              auction={auction}
              onEdit={() => setEditAuctionForm(auction)}
              onDelete={() => setDeleting(auction)}
            />
          ),
        })}
      />
      {deleting ? (
        <Confirm
          title="Delete Auction"
          question={`Are you sure you want to delete "${deleting.title}"?`}
          busy={busy}
          onAnswer={(yes) => (yes ? void remove(deleting) : setDeleting(null))}
        />
      ) : null}
    </section>
  );
};
