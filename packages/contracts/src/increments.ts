/**
 * The published bid increments: how much a bid must beat the current price by, depending on that
 * price. The table is eBay's for US dollars, in cents; one table for the decider, the API's
 * messages, the web app's bid form and the reference model.
 */
export const bidIncrements: readonly {
  /** The row applies to prices from here (inclusive) up to the next row's `fromCents`. */
  readonly fromCents: number;
  readonly incrementCents: number;
}[] = [
  { fromCents: 0, incrementCents: 5 },
  { fromCents: 100, incrementCents: 25 },
  { fromCents: 500, incrementCents: 50 },
  { fromCents: 2_500, incrementCents: 100 },
  { fromCents: 10_000, incrementCents: 250 },
  { fromCents: 25_000, incrementCents: 500 },
  { fromCents: 50_000, incrementCents: 1_000 },
  { fromCents: 100_000, incrementCents: 2_500 },
  { fromCents: 250_000, incrementCents: 5_000 },
  { fromCents: 500_000, incrementCents: 10_000 },
];

/** The increment at a current price (cents). */
export const incrementAt = (priceCents: number): number => {
  let increment = bidIncrements[0]?.incrementCents ?? 0;
  for (const row of bidIncrements) {
    if (priceCents < row.fromCents) break;
    increment = row.incrementCents;
  }
  return increment;
};

/**
 * The smallest bid that beats a current price (cents): the price plus its increment. The first bid
 * of an auction needs only to reach the starting price.
 */
export const minimumRaise = (currentCents: number): number =>
  currentCents + incrementAt(currentCents);
