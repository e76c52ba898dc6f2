/**
 * How an auction's prices must relate (money in cents; null: none): the reserve at least the
 * starting price, Buy It Now at least the starting price and the reserve. The decider refuses the
 * first problem; the web forms show each one at its own field, with the same message.
 */
export const priceProblems = (
  startingPrice: number,
  reservePrice: number | null,
  buyNowPrice: number | null,
): { reserve?: 'RESERVE_BELOW_STARTING_PRICE'; buyNow?: 'BUY_NOW_TOO_LOW' } => ({
  ...(reservePrice !== null && reservePrice < startingPrice
    ? { reserve: 'RESERVE_BELOW_STARTING_PRICE' as const }
    : {}),
  ...(buyNowPrice !== null && buyNowPrice < Math.max(startingPrice, reservePrice ?? 0)
    ? { buyNow: 'BUY_NOW_TOO_LOW' as const }
    : {}),
});
