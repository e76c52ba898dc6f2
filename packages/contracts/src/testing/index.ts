/**
 * For other workspaces' tests (`@auction/contracts/testing`): names their tests check against or
 * count in that no production code outside the contracts needs.
 */
export { DAY_MS } from '../time';
export { formatWholeCents } from '../money';
export { SignupBody } from '../http/auth';
export { startingPriceMessages } from '../http/auctions';
