const PROFILE = '/dashboard/my-profile';

/** An auction's page: `/auction/{id}` with an id of the characters ids use. */
const AUCTION_PAGE = /^\/auction\/[A-Za-z0-9_-]{1,64}$/;

/**
 * Where a login lands: the profile, as the spec has it, except when the visitor was about to bid
 * on an auction, whose page they return to. Any other page a guard sent them from may be stale or
 * broken (an old audit link), so it is never a landing.
 */
export const returnPath = (state: unknown): string => {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && AUCTION_PAGE.test(from) ? from : PROFILE;
};
