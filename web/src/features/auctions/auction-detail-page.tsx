import type { AuctionView } from '@auction/contracts';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AuctionImage } from '../../components/auction-image';
import { Spinner } from '../../components/status';
import { notify } from '../../lib/toast';
import { AuctionHeader } from './detail/auction-header';
import { BidDialogs } from './detail/bid-dialogs';
import { BidPanel } from './detail/bid-panel';
import { LiveBids } from './detail/live-bids';
import { useStaleness } from './detail/link-state';
import { AuctionLoadFailed, AuctionNotFound } from './detail/load-states';
import { AuctionNotices, BidderNotices } from './detail/notices';
import { PricePanel } from './detail/price-panel';
import { SellerControls } from './detail/seller-controls';
import { StickyBidBar } from './detail/sticky-bid-bar';
import { useAuctionDetail } from './detail/use-auction-detail';
import { useBidActions, useBidDialog } from './detail/use-bid-actions';
import { PriceHistorySection } from './history/price-history-section';
import { useLiveAuction } from './live-auction-store';
import './auctions.css';

/** Spec §2 auction detail, kept live by the socket through `useLiveAuction`. */
export const AuctionDetailPage = () => {
  const { auctionId = '' } = useParams();
  const open = useLiveAuction((s) => s.open);
  const load = useLiveAuction((s) => s.load);
  const stored = useLiveAuction((s) => s.auction);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!auctionId) return;
    return open(auctionId);
  }, [auctionId, open, attempt]);

  useEffect(() => {
    if (load === 'failed') notify.error('Cannot fetch Auction Details');
  }, [load]);

  const auction = stored?._id === auctionId ? stored : null;
  if (auction) return <AuctionDetail auction={auction} />;
  if (load === 'missing') return <AuctionNotFound />;
  if (load === 'failed') return <AuctionLoadFailed onRetry={() => setAttempt((n) => n + 1)} />;
  return <Spinner label="Loading auction" />;
};

/** The page's parts; each reads the viewer's standing, and the bid commands open one dialog. */
const AuctionDetail = ({ auction }: { auction: AuctionView }) => {
  const standing = useAuctionDetail(auction);
  const { dialog, open, close, startEdit, startDelete } = useBidDialog();
  const actions = useBidActions(auction._id, close);
  const staleness = useStaleness(auction);
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
          <AuctionHeader auction={auction} staleness={staleness} />
          <AuctionNotices auction={auction} standing={standing} staleness={staleness} />
          <PricePanel auction={auction} standing={standing} stale={staleness !== null} />
          <BidderNotices standing={standing} />
          <div className="detail-actions">
            <BidPanel auction={auction} standing={standing} open={open} />
            <SellerControls auction={auction} standing={standing} />
          </div>
        </div>
      </div>
      <LiveBids
        auction={auction}
        standing={standing}
        staleness={staleness}
        onEdit={startEdit}
        onDelete={startDelete}
      />
      <PriceHistorySection auction={auction} />
      <StickyBidBar auction={auction} standing={standing} open={open} />
      <BidDialogs
        auction={auction}
        dialog={dialog}
        topBidId={standing.topBid?._id ?? null}
        actions={actions}
        close={close}
      />
    </article>
  );
};
