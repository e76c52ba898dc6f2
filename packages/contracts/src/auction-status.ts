/**
 * Where an auction stands, as its events make it: `None` until `AuctionCreated`, `Live` until it is
 * sold, expires or is cancelled. The decider's state and the command bus's outcomes both carry it.
 */
export type AuctionStatus = 'None' | 'Live' | 'Sold' | 'Expired' | 'Cancelled';
