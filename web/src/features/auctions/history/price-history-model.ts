import type { PriceHistoryEntry } from '@auction/contracts';
import type {
  ChartLine,
  ChartMarker,
  ChartPoint,
  PointShape,
} from '../../../components/charts/time-chart';
import { formatMoney } from '../../../lib/format';

/**
 * What the auction page makes of its price history (`GET /auction/history`): the chart's points,
 * lines and markers, and each entry said in words. Pure: tested without a browser.
 */

const SHAPES: Partial<Record<PriceHistoryEntry['kind'], PointShape>> = {
  bid: 'dot',
  raise: 'square',
  automatic: 'diamond',
  retraction: 'ring',
};

const nameOf = (entry: PriceHistoryEntry): string =>
  entry.bidder ? `${entry.bidder.firstName} ${entry.bidder.lastName}`.trim() : '';

/** What happened, in a few words (`Automatic bid for Bob Baker`). */
export const entryTitle = (entry: PriceHistoryEntry): string => {
  const who = nameOf(entry);
  switch (entry.kind) {
    case 'opened':
      return 'Auction opened';
    case 'bid':
      return `Bid by ${who}`;
    case 'raise':
      return `${who} raised their bid`;
    case 'automatic':
      return `Automatic bid for ${who}`;
    case 'retraction':
      return `${who} retracted their bid`;
    case 'edited':
      return 'The seller edited the auction';
    case 'cancelled':
      return 'Auction cancelled';
    case 'closed':
      if (entry.outcome === 'Sold')
        return entry.boughtNow ? `Bought with Buy It Now by ${who}` : `Sold to ${who}`;
      return entry.reserveNotMet ? 'Ended: reserve not met' : 'Ended without a sale';
  }
};

/** Why the price moved as it did, as far as the public may know (never a maximum or the reserve). */
export const entryNotes = (entry: PriceHistoryEntry): string[] => {
  const notes: string[] = [];
  if (entry.kind === 'raise' && entry.previousAmount !== null)
    notes.push(`from ${formatMoney(entry.previousAmount)}`);
  if (entry.kind === 'automatic')
    notes.push(
      entry.reserveMet
        ? 'their maximum reached the reserve: the bid was lifted to it'
        : 'bidding for them up to their secret maximum',
    );
  else if (entry.reserveMet) notes.push('reserve met');
  if (entry.outbidByProxy) notes.push('outbid at once by an automatic bid');
  if (entry.kind === 'retraction') notes.push(`the price fell back to ${formatMoney(entry.price)}`);
  if (entry.kind === 'opened' && entry.amount !== null)
    notes.push(`starting price ${formatMoney(entry.amount)}`);
  if (entry.extended && entry.endsAt) notes.push(`extended the end to ${clock(entry.endsAt)}`);
  return notes;
};

const shortDateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** `Nov 29, 2:48:03 PM`: the history's times, to the second. */
export const clock = (iso: string | number): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : shortDateTime.format(date);
};

/** The entries that move or hold the price: the chart's points. */
export const chartPoints = (entries: readonly PriceHistoryEntry[]): ChartPoint[] =>
  entries.flatMap((entry): ChartPoint[] => {
    const shape = SHAPES[entry.kind];
    if (shape === undefined) return [];
    const y = entry.kind === 'retraction' ? entry.price : (entry.amount ?? entry.price);
    return [
      {
        t: Date.parse(entry.at),
        y,
        shape,
        key: String(entry.revision),
        label: [`${entryTitle(entry)}: ${formatMoney(y)}`, ...entryNotes(entry)].join(', '),
      },
    ];
  });

/** The time axis reaches to the end only when it is this near (or the bids' own span). */
const END_SHOWN_WITHIN_MS = 10 * 60_000;

/**
 * The auction's extensions and its close or cancellation; while it is open, its end too when it
 * is near (an end days away would squeeze every bid into the chart's first pixels).
 */
export const chartMarkers = (
  entries: readonly PriceHistoryEntry[],
  endsAt: string,
  closed: boolean,
): ChartMarker[] => {
  const markers: ChartMarker[] = entries.flatMap((entry): ChartMarker[] => {
    const t = Date.parse(entry.at);
    if (entry.extended) return [{ t, label: 'Extended', tone: 'amber' }];
    if (entry.kind === 'closed' || entry.kind === 'cancelled')
      return [{ t, label: entry.kind === 'closed' ? 'Closed' : 'Cancelled', tone: 'grey' }];
    return [];
  });
  const times = entries.map((entry) => Date.parse(entry.at));
  const last = Math.max(...times);
  const span = Math.max(last - Math.min(...times), END_SHOWN_WITHIN_MS);
  const end = Date.parse(endsAt);
  if (!closed && times.length > 0 && end - last <= span)
    markers.push({ t: end, label: 'Ends', tone: 'grey' });
  return markers;
};

/** The seller's reserve, drawn for them alone (others are never sent its amount). */
export const reserveLine = (reservePrice: number | null | undefined): ChartLine[] =>
  reservePrice === null || reservePrice === undefined
    ? []
    : [{ y: reservePrice, label: `Your reserve ${formatMoney(reservePrice)}`, tone: 'amber' }];
