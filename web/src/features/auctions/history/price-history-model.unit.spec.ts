import type { PriceHistoryEntry } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import {
  chartMarkers,
  chartPoints,
  entryNotes,
  entryTitle,
  reserveLine,
} from './price-history-model';

const bob = { _id: 'b', firstName: 'Bob', lastName: 'Baker', image: null };
const entry = (over: Partial<PriceHistoryEntry>): PriceHistoryEntry => ({
  revision: 1,
  at: '2030-01-01T12:00:00.000Z',
  kind: 'bid',
  bidId: 'x',
  bidder: bob,
  amount: 150,
  previousAmount: null,
  priceBefore: 0,
  price: 150,
  reserve: 'none',
  reserveMet: false,
  extended: false,
  endsAt: null,
  outcome: null,
  boughtNow: false,
  reserveNotMet: false,
  outbidByProxy: false,
  ...over,
});

describe('the price history on the page', () => {
  it('says what happened and why the price jumped', () => {
    const lifted = entry({ kind: 'automatic', amount: 250, price: 250, reserveMet: true });
    expect(entryTitle(lifted)).toBe('Automatic bid for Bob Baker');
    expect(entryNotes(lifted)).toEqual([
      'their maximum reached the reserve: the bid was lifted to it',
    ]);
    const raise = entry({ kind: 'raise', previousAmount: 150, amount: 260, outbidByProxy: true });
    expect(entryNotes(raise)).toEqual(['from $150', 'outbid at once by an automatic bid']);
    const sold = entry({ kind: 'closed', outcome: 'Sold', boughtNow: true });
    expect(entryTitle(sold)).toBe('Bought with Buy It Now by Bob Baker');
  });

  it('draws bids, raises, automatic bids and retractions differently, and the retraction at the price it left', () => {
    const points = chartPoints([
      entry({ kind: 'opened', bidder: null, amount: 100, price: 0, revision: 0 }),
      entry({ revision: 1 }),
      entry({ kind: 'automatic', revision: 2, amount: 250, price: 250 }),
      entry({ kind: 'retraction', revision: 3, amount: 400, price: 250 }),
    ]);
    expect(points.map((p) => [p.key, p.shape, p.y])).toEqual([
      ['1', 'dot', 150],
      ['2', 'diamond', 250],
      ['3', 'ring', 250],
    ]);
  });

  it('marks extensions, the close and (while open) the end; the reserve for its seller only', () => {
    const markers = chartMarkers(
      [entry({ extended: true, endsAt: '2030-01-01T12:02:00.000Z' })],
      '2030-01-01T12:02:00.000Z',
      false,
    );
    expect(markers.map((m) => m.label)).toEqual(['Extended', 'Ends']);
    // An end days away is left off: it would squeeze the bids into the chart's first pixels.
    const far = chartMarkers([entry({})], '2030-01-08T12:00:00.000Z', false);
    expect(far).toEqual([]);
    const closed = chartMarkers(
      [entry({ kind: 'closed', outcome: 'Sold' })],
      '2030-01-01T12:00:00.000Z',
      true,
    );
    expect(closed.map((m) => m.label)).toEqual(['Closed']);
    expect(reserveLine(null)).toEqual([]);
    expect(reserveLine(undefined)).toEqual([]);
    expect(reserveLine(250)[0]?.y).toBe(250);
  });
});
