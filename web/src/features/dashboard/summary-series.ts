import type { AuctionView, WinningItem } from '@auction/contracts';
import type { ChartSeries } from '../../components/charts/time-chart';
import { closedAtOf } from '../../components/time-left';
import { formatMoney } from '../../lib/format';

/**
 * The dashboard's summary charts as series of the time chart: each item at its time and price,
 * and the running total as steps. Pure: tested without a browser.
 */

interface Sale {
  readonly key: string;
  readonly title: string;
  readonly at: string;
  readonly price: number;
}

const seriesOf = (sales: readonly Sale[], each: string, total: string): ChartSeries[] => {
  const sorted = [...sales]
    .filter((sale) => Number.isFinite(Date.parse(sale.at)))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.key.localeCompare(b.key));
  let sum = 0;
  const running = sorted.map((sale) => {
    sum += sale.price;
    return {
      t: Date.parse(sale.at),
      y: sum,
      key: sale.key,
      label: `${total} ${formatMoney(sum)} after ${sale.title}`,
    };
  });
  return [
    { name: total, points: running, step: true, tone: 'green' },
    {
      name: each,
      points: sorted.map((sale) => ({
        t: Date.parse(sale.at),
        y: sale.price,
        key: sale.key,
        shape: 'diamond' as const,
        label: `${sale.title}: ${formatMoney(sale.price)}`,
      })),
      tone: 'brand',
    },
  ];
};

/** Auctions Won: what each item cost, and the running total spent. */
export const winningsSeries = (items: readonly WinningItem[]): ChartSeries[] =>
  seriesOf(
    items.map((item) => ({
      key: item.id,
      title: item.title,
      at: item.wonDate,
      price: item.finalPrice,
    })),
    'Final price',
    'Total spent',
  );

/** The seller's sold auctions among those listed: each sale when it closed, and the running total. */
export const salesSeries = (auctions: readonly AuctionView[]): ChartSeries[] =>
  seriesOf(
    auctions.flatMap((auction) =>
      auction.status === 'Sold' && auction.finalPrice !== null
        ? [
            {
              key: auction._id,
              title: auction.title,
              at: closedAtOf(auction),
              price: auction.finalPrice,
            },
          ]
        : [],
    ),
    'Sale price',
    'Total sales',
  );
