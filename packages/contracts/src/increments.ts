import { z } from 'zod';

/**
 * How much each bid must beat the current price by, chosen by the seller per auction:
 * `one-dollar` (the spec's rule: the current price plus $1) or `table` (the published increment
 * table below, which grows with the price).
 */
export const IncrementRule = z.enum(['one-dollar', 'table']);
export type IncrementRule = z.infer<typeof IncrementRule>;

/** The rule of a CreateAuction that names none: the spec's. */
export const defaultIncrementRule: IncrementRule = 'one-dollar';

/**
 * The rule of an auction whose AuctionCreated names none: it was created while the table applied
 * to every auction, and keeps it.
 */
export const legacyIncrementRule: IncrementRule = 'table';

/** The step of the `one-dollar` rule, in cents. */
export const ONE_DOLLAR_CENTS = 100;

/**
 * The published bid increments of the `table` rule, depending on the current price. The table is
 * eBay's for US dollars, in cents.
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

const tableIncrementAt = (priceCents: number): number => {
  let increment = bidIncrements[0]?.incrementCents ?? 0;
  for (const row of bidIncrements) {
    if (priceCents < row.fromCents) break;
    increment = row.incrementCents;
  }
  return increment;
};

/** The increment at a current price (cents) under an auction's rule. */
export const incrementAt = (priceCents: number, rule: IncrementRule): number =>
  rule === 'table' ? tableIncrementAt(priceCents) : ONE_DOLLAR_CENTS;

/**
 * The smallest bid that beats a current price (cents) under an auction's rule: the price plus its
 * increment. The first bid of an auction needs only to reach the starting price. One rule for the
 * decider, the proxy's second price, the API's messages, the web app's bid form and the reference
 * model.
 */
export const minimumRaise = (currentCents: number, rule: IncrementRule): number =>
  currentCents + incrementAt(currentCents, rule);
