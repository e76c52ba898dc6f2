import { z } from 'zod';
import { Id } from '../ids';
import { IsoTime } from '../time';

/** Written to `user-{id}` when an account is created: the id only, never personal data. */
export const AccountRegistered = z.object({
  type: z.literal('AccountRegistered'),
  data: z.object({ userId: Id, method: z.enum(['password', 'google']), at: IsoTime }),
});

/**
 * Written to `user-{id}` when the account's deletion begins, before its auctions and bids are
 * settled: from here on no command of the user that adds a bid or an auction is decided, and one
 * another node decided before it heard is undone (`engine/src/account/account-closures.ts`).
 */
export const AccountDeletionRequested = z.object({
  type: z.literal('AccountDeletionRequested'),
  data: z.object({ userId: Id, at: IsoTime }),
});

/** Written to `user-{id}` once the account's auctions and bids are settled and its data erased. */
export const AccountDeleted = z.object({
  type: z.literal('AccountDeleted'),
  data: z.object({
    userId: Id,
    cancelledAuctions: z.number().int().min(0),
    retractedBids: z.number().int().min(0),
    at: IsoTime,
  }),
});

export const UserEvent = z.discriminatedUnion('type', [
  AccountRegistered,
  AccountDeletionRequested,
  AccountDeleted,
]);
export type AccountRegistered = z.infer<typeof AccountRegistered>;
export type AccountDeletionRequested = z.infer<typeof AccountDeletionRequested>;
export type AccountDeleted = z.infer<typeof AccountDeleted>;
export type UserEvent = z.infer<typeof UserEvent>;
