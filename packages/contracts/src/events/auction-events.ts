import { z } from 'zod';
import { Cents } from '../money';
import { IsoTime } from '../time';
import { Id } from '../ids';
import { rules } from '../rules';
import { IncrementRule } from '../increments';

/** A reference to an uploaded image (a URL path on our own server), or null. */
export const ImageRef = z.string().min(1).max(512).nullable();

export const AuctionTitle = z.string().trim().min(1).max(rules.maxLength.title);
export const AuctionDescription = z.string().trim().min(1).max(rules.maxLength.description);

const base = { auctionId: Id, at: IsoTime };
/** Every bid event names the bid and its bidder. */
const bidBase = { ...base, bidId: Id, bidderId: Id };
/**
 * Where a bid stands after the event, and the auction's new end when it landed in the soft-close
 * window and moved it.
 */
const standing = { amount: Cents, endsAt: IsoTime.optional() };
/** What a bidder's own bid or raise carries besides. */
const byBidder = {
  /** The bidder's secret maximum (proxy bid), at least `amount`: only the bidder and auditors see it. */
  maxAmount: Cents.optional(),
  /** Another bidder's maximum answered it at once: the automatic bid that follows leads. */
  outbidByProxy: z.literal(true).optional(),
};

/**
 * Soft close: a bid or raise landing within `windowMs` before the end moves the end to that
 * moment plus `extensionMs` (never earlier than it was). Absent or null: the end never moves (the
 * auctions made before soft close existed, and those whose seller turned it off).
 */
export const SoftClose = z.object({
  windowMs: z
    .number()
    .int()
    .min(1000)
    .max(60 * 60_000),
  extensionMs: z
    .number()
    .int()
    .min(1000)
    .max(60 * 60_000),
});
export type SoftClose = z.infer<typeof SoftClose>;

/** Every auction event: a past-tense fact whose `type` equals its name. User ids only, no personal data. */
export const AuctionCreated = z.object({
  type: z.literal('AuctionCreated'),
  data: z.object({
    ...base,
    sellerId: Id,
    title: AuctionTitle,
    description: AuctionDescription,
    categoryId: Id,
    startingPrice: Cents,
    endsAt: IsoTime,
    image: ImageRef,
    softClose: SoftClose.nullable().optional(),
    /**
     * How much each bid must beat the current price by. Every new auction names it; absent: an
     * auction created while the table applied to all (`legacyIncrementRule`).
     */
    increments: IncrementRule.optional(),
    /** The seller's secret minimum: bids below it are accepted but cannot win. Never shown to others. */
    reservePrice: Cents.optional(),
    /** Buying at this price closes the auction at once, while no bid reaches the reserve (or none is placed). */
    buyNowPrice: Cents.optional(),
  }),
});

/** Only the fields that changed are present (null: the reserve or Buy It Now price was removed). */
export const AuctionEdited = z.object({
  type: z.literal('AuctionEdited'),
  data: z.object({
    ...base,
    title: AuctionTitle.optional(),
    description: AuctionDescription.optional(),
    image: ImageRef.optional(),
    startingPrice: Cents.optional(),
    endsAt: IsoTime.optional(),
    reservePrice: Cents.nullable().optional(),
    buyNowPrice: Cents.nullable().optional(),
  }),
});

export const CancellationReason = z.enum(['seller', 'account-deleted']);

export const AuctionCancelled = z.object({
  type: z.literal('AuctionCancelled'),
  data: z.object({ ...base, reason: CancellationReason }),
});

/** A new bid (see `standing`, `byBidder`); an automatic bid for another may follow it in the same commit. */
export const BidPlaced = z.object({
  type: z.literal('BidPlaced'),
  data: z.object({
    ...bidBase,
    ...standing,
    ...byBidder,
    /** The bid of a Buy It Now purchase: the `AuctionClosed` that follows sells at it. */
    buyNow: z.literal(true).optional(),
  }),
});

/**
 * An edit only raises; after it the edited bid leads at `amount` (`endsAt`, `maxAmount`: as for
 * BidPlaced), until an automatic bid that may follow it in the same commit answers it.
 */
export const BidEdited = z.object({
  type: z.literal('BidEdited'),
  data: z.object({ ...bidBase, previousAmount: Cents, ...standing, ...byBidder }),
});

/**
 * The bidder raised their secret maximum without raising the visible amount. Private: watchers
 * learn nothing of it beyond the stream revision; an automatic bid may follow it.
 */
export const BidMaximumRaised = z.object({
  type: z.literal('BidMaximumRaised'),
  data: z.object({ ...bidBase, previousMaxAmount: Cents, maxAmount: Cents }),
});

/**
 * The system bid for a proxy bidder: their bid now stands at `amount` (never above their maximum)
 * and leads. It follows the event that called for it, in the same commit (`endsAt`: as for
 * BidPlaced).
 */
export const AutomaticBidPlaced = z.object({
  type: z.literal('AutomaticBidPlaced'),
  data: z.object({ ...bidBase, previousAmount: Cents, ...standing }),
});

/**
 * Who took a bid back: its bidder (the retraction rules apply), or the deletion of their account
 * (always allowed; only the server asks for it).
 */
export const RetractionReason = z.enum(['bidder', 'account-deleted']);
export type RetractionReason = z.infer<typeof RetractionReason>;

/**
 * The current bid falls back to the highest remaining bid (`0` and `null` when none remain).
 * `reason` is present only for an account's deletion (absent: the bidder retracted it).
 */
export const BidRetracted = z.object({
  type: z.literal('BidRetracted'),
  data: z.object({
    ...bidBase,
    amount: Cents,
    currentBid: Cents,
    leadingBidId: Id.nullable(),
    reason: RetractionReason.optional(),
  }),
});

export const AuctionClosed = z.object({
  type: z.literal('AuctionClosed'),
  data: z.discriminatedUnion('outcome', [
    z.object({
      ...base,
      outcome: z.literal('Sold'),
      winnerId: Id,
      winningBidId: Id,
      finalPrice: Cents,
      /** Sold at the Buy It Now price, before the end. */
      boughtNow: z.literal(true).optional(),
    }),
    z.object({
      ...base,
      outcome: z.literal('Expired'),
      /** There were bids, but none reached the reserve. */
      reserveNotMet: z.literal(true).optional(),
    }),
  ]),
});

/**
 * Watchers hear the auction is about to end (`rules.endingSoonLeadMs` before `endsAt`, the end it
 * had then): decided once per closing stretch (`engine/src/auction/ending-soon.ts`).
 */
export const AuctionEndingSoon = z.object({
  type: z.literal('AuctionEndingSoon'),
  data: z.object({ ...base, endsAt: IsoTime }),
});

export const AuctionEvent = z.discriminatedUnion('type', [
  AuctionCreated,
  AuctionEdited,
  AuctionCancelled,
  BidPlaced,
  BidEdited,
  BidMaximumRaised,
  AutomaticBidPlaced,
  BidRetracted,
  AuctionClosed,
  AuctionEndingSoon,
]);

export type AuctionCreated = z.infer<typeof AuctionCreated>;
export type AuctionEdited = z.infer<typeof AuctionEdited>;
export type AuctionCancelled = z.infer<typeof AuctionCancelled>;
export type BidPlaced = z.infer<typeof BidPlaced>;
export type BidEdited = z.infer<typeof BidEdited>;
export type BidMaximumRaised = z.infer<typeof BidMaximumRaised>;
export type AutomaticBidPlaced = z.infer<typeof AutomaticBidPlaced>;
export type BidRetracted = z.infer<typeof BidRetracted>;
export type AuctionClosed = z.infer<typeof AuctionClosed>;
export type AuctionEndingSoon = z.infer<typeof AuctionEndingSoon>;
export type AuctionEvent = z.infer<typeof AuctionEvent>;
export const auctionEventTypes = AuctionEvent.options.map((o) => o.shape.type.value);
