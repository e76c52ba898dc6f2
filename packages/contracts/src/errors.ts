import { formatCents } from './money';
import { rules } from './rules';

const minutes = (ms: number): string => `${ms / 60_000} minutes`;

/**
 * The one vocabulary of failures. Each code has the HTTP status it encodes to and the message a
 * user sees; codes are stable, messages may improve.
 */
export const errorCatalog = {
  VALIDATION_FAILED: { status: 400, message: 'Invalid input' },
  UNAUTHENTICATED: { status: 401, message: 'Please log in to continue' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The upload is too large (max 10MB)' },
  REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request took too long to arrive; nothing was changed. Please try again.',
  },
  UPLOADS_BUSY: {
    status: 503,
    message:
      'Too many uploads are in progress right now; nothing was changed. Please try again in a moment.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'Only JPEG, PNG, WebP or GIF images are accepted',
  },
  RATE_LIMITED: { status: 429, message: 'Too many requests, please slow down' },
  INTERNAL: { status: 500, message: 'Something went wrong' },
  UNAVAILABLE: { status: 503, message: 'The service is busy, please try again' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'Storage is unavailable right now; nothing was changed. Please try again later.',
  },

  AUCTION_NOT_FOUND: { status: 404, message: 'Auction not found' },
  AUCTION_ALREADY_EXISTS: { status: 409, message: 'This auction already exists' },
  AUCTION_ENDED: { status: 409, message: 'This auction has ended' },
  AUCTION_NOT_LIVE: { status: 409, message: 'This auction is no longer live' },
  AUCTION_BOUGHT_NOW: { status: 409, message: 'This auction was sold with Buy It Now' },
  AUCTION_CLOSED: {
    status: 409,
    message: 'A closed auction is part of the record and cannot be deleted',
  },
  AUCTION_NOT_ENDED: { status: 409, message: 'This auction has not reached its end time yet' },
  NOT_AUCTION_OWNER: { status: 403, message: 'Only the seller can change this auction' },
  STARTING_PRICE_TOO_LOW: { status: 400, message: 'Starting price must be at least $100' },
  STARTING_PRICE_LOCKED: {
    status: 409,
    message: 'The starting price cannot change once bids are placed',
  },
  END_TIME_NOT_IN_FUTURE: { status: 400, message: 'The auction end time must be in the future' },
  END_TIME_TOO_FAR: { status: 400, message: 'The auction end time must be at most 90 days ahead' },
  END_TIME_EARLIER: {
    status: 409,
    message: 'The end time cannot move earlier once bids are placed',
  },

  RESERVE_BELOW_STARTING_PRICE: {
    status: 400,
    message: 'The reserve price must be at least the starting price',
  },
  RESERVE_LOCKED: {
    status: 409,
    message: 'The reserve price can only be lowered once bids are placed',
  },
  BUY_NOW_TOO_LOW: {
    status: 400,
    message: 'The Buy It Now price must be at least the starting price and the reserve price',
  },
  BUY_NOW_LOCKED: {
    status: 409,
    message: 'The Buy It Now price cannot change once bids are placed',
  },
  BUY_NOW_UNAVAILABLE: {
    status: 409,
    message: 'Buy It Now is no longer available for this auction',
  },
  BUY_NOW_PRICE_CHANGED: {
    status: 409,
    message: 'The Buy It Now price has changed; please check it and try again',
  },

  OWN_AUCTION: { status: 403, message: 'You cannot bid on your own auction' },
  MAXIMUM_BELOW_BID: { status: 400, message: 'Your maximum must be at least your bid' },
  MAXIMUM_NOT_RAISED: {
    status: 409,
    message: 'Your new maximum must be more than your current maximum',
  },
  BID_UNCHANGED: { status: 400, message: 'Enter a new bid amount or a new maximum' },
  BID_TOO_LOW: { status: 409, message: 'Your bid is too low' },
  BID_NOT_FOUND: { status: 404, message: 'Bid not found' },
  BID_ALREADY_EXISTS: { status: 409, message: 'This bid has already been placed' },
  NOT_BID_OWNER: { status: 403, message: 'You can only change your own bids' },
  RETRACTION_CLOSING: {
    status: 409,
    message: 'Bids cannot be deleted in the last hour of an auction',
  },
  RETRACTION_LIMIT_REACHED: {
    status: 409,
    message: 'You have already deleted a bid on this auction; you can delete only one',
  },
  BID_BINDING: {
    status: 409,
    message:
      'This bid can no longer be deleted: an automatic bid raised it, or it extended the auction',
  },
  RETRACTION_GRACE_OVER: {
    status: 409,
    message: `A bid can be deleted only within ${minutes(rules.retraction.graceMs)} of placing or raising it`,
  },

  WATCH_CANCELLED_AUCTION: { status: 409, message: 'A cancelled auction cannot be watched' },

  CATEGORY_NOT_FOUND: { status: 400, message: 'Category not found' },
  CATEGORY_EXISTS: { status: 409, message: 'Category already exists' },

  ACCOUNT_DELETED: {
    status: 403,
    message: 'This account is being deleted; it can no longer bid or sell',
  },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  GOOGLE_NOT_CONFIGURED: {
    status: 404,
    message: 'Google sign-in is not available on this server',
  },
  INVALID_ID_TOKEN: { status: 401, message: 'The Google sign-in could not be verified' },
  CSRF_REJECTED: { status: 403, message: 'Cross-site request refused' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  MALFORMED_PATH: {
    status: 400,
    message: 'The request path is not valid: a percent-encoded character in it is malformed',
  },

  MALFORMED_CONSISTENCY_TOKEN: {
    status: 400,
    message: 'The Consistency-Token header must be a log position from an earlier answer',
  },
  EVENT_UNREADABLE: {
    status: 409,
    message: 'An event of this auction cannot be read; verify the auction',
  },

  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message:
      'This Idempotency-Key was already used for a different request; nothing was changed. Use a new key for a new request.',
  },

  CONCURRENCY_CONFLICT: {
    status: 409,
    message: 'The auction changed while your request was processed, please try again',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;
export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

/** A refusal the domain gives: a stable code, the message a user sees, optional details. */
export interface Rejection {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export const rejection = (
  code: ErrorCode,
  details?: Record<string, unknown>,
  message: string = errorCatalog[code].message,
): Rejection => (details === undefined ? { code, message } : { code, message, details });

/** `BUY_NOW_PRICE_CHANGED` with the price on offer now, in the user's words. */
export const buyNowPriceChanged = (priceCents: number): Rejection =>
  rejection(
    'BUY_NOW_PRICE_CHANGED',
    { price: priceCents },
    `The Buy It Now price has changed to ${formatCents(priceCents)}`,
  );

/** `BID_TOO_LOW` with the smallest amount that would be accepted, in the user's words. */
export const bidTooLow = (minimumCents: number): Rejection =>
  rejection(
    'BID_TOO_LOW',
    { minimum: minimumCents },
    `Your bid must be at least ${formatCents(minimumCents)}`,
  );

export const httpStatusOf = (code: ErrorCode): number => errorCatalog[code].status;

/** A domain failure carried as an exception across layers that cannot return a Rejection. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  constructor(r: Rejection) {
    super(r.message);
    this.name = 'DomainError';
    this.code = r.code;
    this.details = r.details;
  }
  toRejection(): Rejection {
    return rejection(this.code, this.details, this.message);
  }
}
