import { z } from 'zod';
import { Cents } from '../money';
import { IsoTime } from '../time';
import { Id } from '../ids';
import { Sha256Hex } from '../events/metadata';
import { IncrementRule } from '../increments';
import {
  AuctionDescription,
  AuctionTitle,
  CancellationReason,
  ImageRef,
  RetractionReason,
  SoftClose,
} from '../events/auction-events';

/**
 * Who asks, when, and under which ids. Time and ids come in with the command: the decider reads
 * no clock and makes no ids.
 */
export const CommandMetadata = z.object({
  commandId: Id,
  /** The acting user (seller, bidder) or `system`. */
  actorId: Id,
  correlationId: Id,
  /** Business time the command was received. */
  at: IsoTime,
  /**
   * A request sent with an Idempotency-Key: the SHA-256 of what it asked, so the same key sent
   * again with another request is refused instead of answered with the first one's outcome.
   */
  requestDigest: Sha256Hex.optional(),
});
export type CommandMetadata = z.infer<typeof CommandMetadata>;

const cmd = <T extends string, D extends z.ZodRawShape>(type: T, data: D) =>
  z.object({
    type: z.literal(type),
    data: z.object({ auctionId: Id, ...data }),
    metadata: CommandMetadata,
  });

export const CreateAuction = cmd('CreateAuction', {
  title: AuctionTitle,
  description: AuctionDescription,
  categoryId: Id,
  startingPrice: Cents,
  endsAt: IsoTime,
  image: ImageRef,
  /** Absent or null: soft close off. */
  softClose: SoftClose.nullable().optional(),
  /** Absent: `defaultIncrementRule` (the spec's one dollar). */
  increments: IncrementRule.optional(),
  reservePrice: Cents.optional(),
  buyNowPrice: Cents.optional(),
});

/** Absent fields stay as they are. */
export const EditAuction = cmd('EditAuction', {
  title: AuctionTitle.optional(),
  description: AuctionDescription.optional(),
  image: ImageRef.optional(),
  startingPrice: Cents.optional(),
  endsAt: IsoTime.optional(),
  /** null: remove it. */
  reservePrice: Cents.nullable().optional(),
  buyNowPrice: Cents.nullable().optional(),
});

export const CancelAuction = cmd('CancelAuction', { reason: CancellationReason });
/** `maxAmount`: a secret maximum the system bids up to for the bidder (at least `amount`). */
export const PlaceBid = cmd('PlaceBid', { bidId: Id, amount: Cents, maxAmount: Cents.optional() });
/** Raises the visible amount, the secret maximum, or both (at least one is given). */
export const EditBid = cmd('EditBid', {
  bidId: Id,
  amount: Cents.optional(),
  maxAmount: Cents.optional(),
});
/** Buys at the Buy It Now price the buyer saw (`price`), closing the auction at once. */
export const BuyNow = cmd('BuyNow', { bidId: Id, price: Cents });
/**
 * Deletes the bidder's own bid. `reason: 'account-deleted'` (set only by the server's account
 * deletion) skips the retraction rules; absent, the bidder asks and the rules apply.
 */
export const RetractBid = cmd('RetractBid', { bidId: Id, reason: RetractionReason.optional() });
/** Sent by the closing scheduler at or after the end time; closing twice is a no-op. */
export const CloseAuction = cmd('CloseAuction', {});
/** Sent by the ending-soon scheduler at `endsAt - rules.endingSoonLeadMs`; a repeat is a no-op. */
export const AnnounceEndingSoon = cmd('AnnounceEndingSoon', {});

export const AuctionCommand = z.discriminatedUnion('type', [
  CreateAuction,
  EditAuction,
  CancelAuction,
  PlaceBid,
  EditBid,
  RetractBid,
  BuyNow,
  CloseAuction,
  AnnounceEndingSoon,
]);

export type CreateAuction = z.infer<typeof CreateAuction>;
export type EditAuction = z.infer<typeof EditAuction>;
export type CancelAuction = z.infer<typeof CancelAuction>;
export type PlaceBid = z.infer<typeof PlaceBid>;
export type EditBid = z.infer<typeof EditBid>;
export type RetractBid = z.infer<typeof RetractBid>;
export type BuyNow = z.infer<typeof BuyNow>;
export type CloseAuction = z.infer<typeof CloseAuction>;
export type AnnounceEndingSoon = z.infer<typeof AnnounceEndingSoon>;
export type AuctionCommand = z.infer<typeof AuctionCommand>;
