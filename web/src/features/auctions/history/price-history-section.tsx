import type { AuctionView } from '@auction/contracts';
import { TimeChart } from '../../../components/charts/time-chart';
import { formatMoney } from '../../../lib/format';
import { BidHistory } from './bid-history';
import { chartMarkers, chartPoints, clock, reserveLine } from './price-history-model';
import { usePriceHistory } from './use-price-history';
import './price-history.css';

/**
 * The auction's price history beside the spec's "Live Auction" list: a chart of the price over
 * time (bids, automatic bids and retractions drawn apart, the end and its extensions marked, the
 * seller's own reserve) and the full bid history, both kept live.
 */
export const PriceHistorySection = ({ auction }: { auction: AuctionView }) => {
  const { entries, loaded, failed, retry } = usePriceHistory(auction._id, auction.revision);
  const closed = auction.status !== 'Live';
  return (
    <section className="price-history" aria-labelledby="price-history-heading">
      <h2 id="price-history-heading">Price history</h2>
      {failed && (
        <p className="price-history-failed" role="alert">
          The price history could not be loaded.{' '}
          <button type="button" className="btn btn-outline btn-small" onClick={retry}>
            Retry
          </button>
        </p>
      )}
      {!loaded && !failed ? (
        <p className="price-history-loading">Loading the price history…</p>
      ) : (
        <>
          <TimeChart
            title="Price over time"
            className="price-history-chart"
            series={[{ name: 'Price', points: chartPoints(entries), step: true }]}
            lines={reserveLine(auction.viewer?.reservePrice)}
            markers={chartMarkers(entries, auction.auctionEndTime, closed)}
            formatValue={formatMoney}
            formatTime={clock}
            empty="No bids yet: the chart starts with the first bid."
          />
          <h3 className="bid-history-heading">Bid history</h3>
          <BidHistory entries={entries} />
        </>
      )}
    </section>
  );
};
