import { auditOperations } from './audit';
import { auctionOperations } from './auctions';
import { authOperations } from './auth';
import { bidOperations } from './bids';
import { type Operation, operationTable } from './operation';
import { priceHistoryOperations } from './price-history';
import { userOperations } from './users';
import { watchlistOperations } from './watchlist';

/** The server itself: whether it can serve, and the OpenAPI document of this table. */
export const serviceOperations = operationTable({
  health: {
    method: 'get',
    path: '/health',
    summary: 'The server can serve',
    auth: 'none',
    ok: 200,
  },
  openapi: {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    auth: 'none',
    ok: 200,
    raw: { contentType: 'application/json' },
  },
});

/**
 * Every route of `/api/v1`, in the order the OpenAPI document lists them. The API registers
 * each handler against its entry, and a test checks this list against what the routers register.
 */
export const operations: readonly Operation[] = [
  ...Object.values(serviceOperations),
  ...Object.values(authOperations),
  ...Object.values(auctionOperations),
  ...Object.values(priceHistoryOperations),
  ...Object.values(watchlistOperations),
  ...Object.values(userOperations),
  ...Object.values(bidOperations),
  ...Object.values(auditOperations),
];
