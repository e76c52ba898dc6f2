import fc from 'fast-check';
import {
  IncrementRule,
  MAX_CENTS,
  SYSTEM_ACTOR,
  bidIncrements,
  isoToMs,
  minimumRaise,
  rules,
  toIsoTime,
} from '@auction/contracts';
import type {
  AuctionCommand,
  BuyNow,
  CancelAuction,
  CloseAuction,
  CommandMetadata,
  CreateAuction,
  EditAuction,
  EditBid,
  PlaceBid,
  RetractBid,
} from '@auction/contracts';
import { createModel } from './reference-model';
import type { ModelView } from './reference-model';

/** The instant generated times cluster around. */
export const ARBITRARY_EPOCH = '2030-01-01T00:00:00.000Z';

const epochMs = isoToMs(ARBITRARY_EPOCH);
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Contract-valid ids: UUIDs and short URL-safe tokens. */
export const idArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/));

/** Any acting user, the system scheduler included. */
export const actorIdArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 9, arbitrary: idArbitrary() },
    { weight: 1, arbitrary: fc.constant(SYSTEM_ACTOR) },
  );

/** Cents within the contract, biased to the bidding boundaries around $100 under either rule. */
export const centsArbitrary = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(
      0,
      rules.minStartingPriceCents - 1,
      rules.minStartingPriceCents,
      minimumRaise(rules.minStartingPriceCents, 'one-dollar') - 1,
      minimumRaise(rules.minStartingPriceCents, 'one-dollar'),
      minimumRaise(rules.minStartingPriceCents, 'table') - 1,
      minimumRaise(rules.minStartingPriceCents, 'table'),
      // Where the increment table changes rows.
      ...bidIncrements.flatMap((row) => [row.fromCents - 1, row.fromCents]).filter((c) => c >= 0),
      MAX_CENTS,
    ),
    fc.integer({ min: 9_000, max: 50_000 }),
    fc.integer({ min: 0, max: MAX_CENTS }),
  );

/** Starting prices: mostly valid, sometimes exactly the minimum or one cent below it. */
export const startingPriceArbitrary = (): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 100, max: 1_000 }).map((dollars) => dollars * 100) },
    { weight: 2, arbitrary: fc.integer({ min: rules.minStartingPriceCents, max: 500_000 }) },
    { weight: 2, arbitrary: fc.constant(rules.minStartingPriceCents) },
    { weight: 1, arbitrary: fc.constant(rules.minStartingPriceCents - 1) },
  );

/** ISO instants (`YYYY-MM-DDTHH:mm:ss.sssZ`) within `[fromMs, toMs]`; by default 120 days from the epoch. */
export const isoTimeArbitrary = (
  range: { fromMs?: number; toMs?: number } = {},
): fc.Arbitrary<string> =>
  fc
    .integer({ min: range.fromMs ?? epochMs, max: range.toMs ?? epochMs + 120 * 24 * HOUR_MS })
    .map(toIsoTime);

/** Fixes the auction or the actor of generated commands. */
export interface CommandArbitraryOptions {
  auctionId?: string;
  actorId?: string;
}

/** Command metadata with fresh ids, an actor and a time near the epoch. */
export const commandMetadataArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<CommandMetadata> =>
  fc.record({
    commandId: idArbitrary(),
    actorId: options.actorId === undefined ? actorIdArbitrary() : fc.constant(options.actorId),
    correlationId: idArbitrary(),
    at: isoTimeArbitrary(),
  });

const titleArbitrary = (): fc.Arbitrary<string> =>
  fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9 ]{0,38}[A-Za-z0-9])?$/);

const imageArbitrary = (): fc.Arbitrary<string | null> =>
  fc.constantFrom(null, '/uploads/lamp.jpg', '/uploads/chair.png');

const commandArbitrary = <T extends AuctionCommand['type'], D extends object>(
  type: T,
  data: fc.Arbitrary<D>,
  options: CommandArbitraryOptions,
) =>
  fc.record({
    type: fc.constant(type),
    data: fc
      .tuple(options.auctionId === undefined ? idArbitrary() : fc.constant(options.auctionId), data)
      .map(([auctionId, rest]) => ({ auctionId, ...rest })),
    metadata: commandMetadataArbitrary(options),
  });

/**
 * A CreateAuction, with either increment rule or none (the default); its values may break the
 * rules (e.g. a price below $100), never the contract.
 */
export const createAuctionCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<CreateAuction> =>
  commandArbitrary(
    'CreateAuction',
    fc.record(
      {
        title: titleArbitrary(),
        description: titleArbitrary(),
        categoryId: idArbitrary(),
        startingPrice: startingPriceArbitrary(),
        endsAt: isoTimeArbitrary(),
        image: imageArbitrary(),
        increments: fc.constantFrom(...IncrementRule.options),
      },
      {
        requiredKeys: ['title', 'description', 'categoryId', 'startingPrice', 'endsAt', 'image'],
      },
    ),
    options,
  );

/** An EditAuction with any subset of its optional fields. */
export const editAuctionCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<EditAuction> =>
  commandArbitrary(
    'EditAuction',
    fc.record(
      {
        title: titleArbitrary(),
        description: titleArbitrary(),
        image: imageArbitrary(),
        startingPrice: startingPriceArbitrary(),
        endsAt: isoTimeArbitrary(),
      },
      { requiredKeys: [] },
    ),
    options,
  );

export const cancelAuctionCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<CancelAuction> =>
  commandArbitrary(
    'CancelAuction',
    fc.record({ reason: fc.constantFrom('seller' as const, 'account-deleted' as const) }),
    options,
  );

export const placeBidCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<PlaceBid> =>
  commandArbitrary(
    'PlaceBid',
    fc.record(
      { bidId: idArbitrary(), amount: centsArbitrary(), maxAmount: centsArbitrary() },
      { requiredKeys: ['bidId', 'amount'] },
    ),
    options,
  );

export const editBidCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<EditBid> =>
  commandArbitrary(
    'EditBid',
    fc.record(
      { bidId: idArbitrary(), amount: centsArbitrary(), maxAmount: centsArbitrary() },
      { requiredKeys: ['bidId'] },
    ),
    options,
  );

export const buyNowCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<BuyNow> =>
  commandArbitrary('BuyNow', fc.record({ bidId: idArbitrary(), price: centsArbitrary() }), options);

export const retractBidCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<RetractBid> =>
  commandArbitrary('RetractBid', fc.record({ bidId: idArbitrary() }), options);

export const closeAuctionCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<CloseAuction> => commandArbitrary('CloseAuction', fc.record({}), options);

/** Any single auction command, unrelated to any state. */
export const auctionCommandArbitrary = (
  options: CommandArbitraryOptions = {},
): fc.Arbitrary<AuctionCommand> =>
  fc.oneof(
    createAuctionCommandArbitrary(options),
    editAuctionCommandArbitrary(options),
    cancelAuctionCommandArbitrary(options),
    placeBidCommandArbitrary(options),
    editBidCommandArbitrary(options),
    retractBidCommandArbitrary(options),
    buyNowCommandArbitrary(options),
    closeAuctionCommandArbitrary(options),
  );

type Actor = { kind: 'natural' } | { kind: 'seller' } | { kind: 'bidder'; index: number };
/** `beforeEnd`: to `ms` before the end (unless time is already past it). */
type Step =
  | { kind: 'wait'; ms: number }
  | { kind: 'pastEnd'; offsetMs: number }
  | { kind: 'beforeEnd'; ms: number };
/** `latest`: the bid placed last. */
type BidRef =
  | { kind: 'fresh' }
  | { kind: 'active'; index: number }
  | { kind: 'known'; index: number }
  | { kind: 'latest' }
  | { kind: 'unknown' };
type AmountBase = 'next' | 'highest' | 'starting' | 'own';
interface Amount {
  base: AmountBase;
  delta: number;
}
type PriceChange = { kind: 'same' } | { kind: 'set'; cents: number };
type EndChange = { kind: 'same' } | { kind: 'shift'; ms: number } | { kind: 'fromNow'; ms: number };

type Intent =
  | { kind: 'place'; step: Step; actor: Actor; bidder: number; bid: BidRef; amount: Amount }
  | { kind: 'edit'; step: Step; actor: Actor; bid: BidRef; amount: Amount }
  | { kind: 'retract'; step: Step; actor: Actor; bid: BidRef; forDeletion?: true }
  | {
      kind: 'editAuction';
      step: Step;
      actor: Actor;
      title: string | undefined;
      startingPrice: PriceChange | undefined;
      endsAt: EndChange | undefined;
    }
  | { kind: 'cancel'; step: Step; actor: Actor }
  | { kind: 'close'; step: Step; actor: Actor }
  | { kind: 'create'; step: Step; actor: Actor }
  | ExtraIntent;

/**
 * A secret maximum: over the amount bid (`amount`), over the leader's maximum (`top`, for ties and
 * near misses) or over the bid's own maximum (`own`, for raises).
 */
interface MaxChoice {
  base: 'amount' | 'top' | 'own';
  delta: number;
}
type PriceEdit = { kind: 'remove' } | { kind: 'set'; delta: number };

/** Intents of the later rules (proxies, reserve, Buy It Now), spliced in by {@link Extras}. */
type ExtraIntent =
  | { kind: 'raiseMax'; step: Step; actor: Actor; bid: BidRef; max: MaxChoice }
  | { kind: 'buyNow'; step: Step; actor: Actor; bidder: number; exact: boolean }
  | {
      kind: 'editPrices';
      step: Step;
      actor: Actor;
      reserve: PriceEdit | undefined;
      buyNow: PriceEdit | undefined;
    };

/**
 * What the later rules add to a timeline. Drawn after everything else, so the earlier draws (and
 * the pinned counterexamples' paths through them) stay as they were.
 */
interface Extras {
  /** Over the starting price; null: no reserve. */
  reserve: number | null;
  /** Over the larger of the starting price and the reserve; null: no Buy It Now. */
  buyNow: number | null;
  /** The maximum of the i-th intent when it places or edits a bid; null: none. */
  maxima: (MaxChoice | null)[];
  /** Intents spliced in after the `after`-th. */
  inserts: { after: number; intent: ExtraIntent }[];
}

interface Opening {
  bidders: number;
  startMs: number;
  startingPrice: number;
  durationMs: number;
  title: string;
  softClose: { windowMs: number; extensionMs: number } | null;
  /** Undefined: the CreateAuction names none (the spec's one dollar). */
  increments: IncrementRule | undefined;
  reserve: number | null;
  buyNow: number | null;
}

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 30, arbitrary: fc.constant({ kind: 'wait' as const, ms: 0 }) },
  {
    weight: 30,
    arbitrary: fc.integer({ min: 1, max: 1_000 }).map((ms) => ({ kind: 'wait' as const, ms })),
  },
  {
    weight: 50,
    arbitrary: fc
      .integer({ min: 1_000, max: 3 * MINUTE_MS })
      .map((ms) => ({ kind: 'wait' as const, ms })),
  },
  {
    weight: 5,
    arbitrary: fc
      .integer({ min: 3 * MINUTE_MS, max: HOUR_MS })
      .map((ms) => ({ kind: 'wait' as const, ms })),
  },
);

const crossingArbitrary: fc.Arbitrary<Step> = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 1) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: HOUR_MS }) },
  )
  .map((offsetMs) => ({ kind: 'pastEnd' as const, offsetMs }));

const actorArbitrary = (naturalWeight: number): fc.Arbitrary<Actor> =>
  fc.oneof(
    { weight: naturalWeight, arbitrary: fc.constant({ kind: 'natural' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'seller' as const }) },
    { weight: 1, arbitrary: fc.nat(4).map((index) => ({ kind: 'bidder' as const, index })) },
  );

const amountArbitrary: fc.Arbitrary<Amount> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Amount>({ base: 'next', delta: 0 }) },
  {
    weight: 5,
    arbitrary: fc.integer({ min: 1, max: 5_000 }).map((delta): Amount => ({ base: 'next', delta })),
  },
  { weight: 2, arbitrary: fc.constant<Amount>({ base: 'next', delta: -1 }) },
  { weight: 1, arbitrary: fc.constant<Amount>({ base: 'highest', delta: 0 }) },
  { weight: 1, arbitrary: fc.constant<Amount>({ base: 'starting', delta: 0 }) },
  { weight: 1, arbitrary: fc.constant<Amount>({ base: 'starting', delta: -1 }) },
  { weight: 1, arbitrary: fc.constant<Amount>({ base: 'own', delta: 0 }) },
  { weight: 1, arbitrary: fc.constant<Amount>({ base: 'own', delta: 1 }) },
);

const existingBidArbitrary: fc.Arbitrary<BidRef> = fc.oneof(
  { weight: 8, arbitrary: fc.nat(20).map((index): BidRef => ({ kind: 'active', index })) },
  { weight: 2, arbitrary: fc.nat(20).map((index): BidRef => ({ kind: 'known', index })) },
  { weight: 1, arbitrary: fc.constant<BidRef>({ kind: 'unknown' }) },
);

const priceChangeArbitrary: fc.Arbitrary<PriceChange | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<PriceChange>({ kind: 'same' }) },
  {
    weight: 3,
    arbitrary: startingPriceArbitrary().map((cents): PriceChange => ({ kind: 'set', cents })),
  },
);

const endChangeArbitrary: fc.Arbitrary<EndChange | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<EndChange>({ kind: 'same' }) },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: -30 * MINUTE_MS, max: 30 * MINUTE_MS })
      .map((ms): EndChange => ({ kind: 'shift', ms })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        -1,
        0,
        1,
        rules.maxAuctionDurationMs,
        rules.maxAuctionDurationMs + 1,
        10 * MINUTE_MS,
      )
      .map((ms): EndChange => ({ kind: 'fromNow', ms })),
  },
);

const cancelIntentArbitrary: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('cancel' as const),
  step: stepArbitrary,
  actor: actorArbitrary(3),
});

const closeIntentArbitrary: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('close' as const),
  step: stepArbitrary,
  actor: actorArbitrary(8),
});

const intentArbitrary: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 60,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      step: stepArbitrary,
      actor: actorArbitrary(12),
      bidder: fc.nat(4),
      bid: fc.oneof(
        { weight: 24, arbitrary: fc.constant<BidRef>({ kind: 'fresh' }) },
        { weight: 1, arbitrary: fc.nat(20).map((index): BidRef => ({ kind: 'known', index })) },
      ),
      amount: amountArbitrary,
    }),
  },
  {
    weight: 15,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      step: stepArbitrary,
      actor: actorArbitrary(6),
      bid: existingBidArbitrary,
      amount: amountArbitrary,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('retract' as const),
      step: stepArbitrary,
      actor: actorArbitrary(6),
      bid: existingBidArbitrary,
    }),
  },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('editAuction' as const),
      step: stepArbitrary,
      actor: actorArbitrary(6),
      title: fc.option(titleArbitrary(), { nil: undefined }),
      startingPrice: priceChangeArbitrary,
      endsAt: endChangeArbitrary,
    }),
  },
  { weight: 1, arbitrary: cancelIntentArbitrary },
  { weight: 4, arbitrary: closeIntentArbitrary },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      step: stepArbitrary,
      actor: actorArbitrary(6),
    }),
  },
);

const afterEndIntentArbitrary: fc.Arbitrary<Intent> = fc.oneof(
  { weight: 4, arbitrary: intentArbitrary },
  { weight: 2, arbitrary: closeIntentArbitrary },
  { weight: 1, arbitrary: cancelIntentArbitrary },
);

const maxChoiceArbitrary: fc.Arbitrary<MaxChoice> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        { weight: 1, arbitrary: fc.constantFrom(-1, 0) },
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
      )
      .map((delta): MaxChoice => ({ base: 'amount', delta })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(-1, 0, 1).map((delta): MaxChoice => ({ base: 'top', delta })),
  },
);

const raiseChoiceArbitrary: fc.Arbitrary<MaxChoice> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        { weight: 1, arbitrary: fc.constantFrom(-1, 0) },
        { weight: 5, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
      )
      .map((delta): MaxChoice => ({ base: 'own', delta })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(-1, 0, 1).map((delta): MaxChoice => ({ base: 'top', delta })),
  },
);

const priceEditArbitrary: fc.Arbitrary<PriceEdit | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<PriceEdit>({ kind: 'remove' }) },
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        { weight: 2, arbitrary: fc.constantFrom(-1, 0, 1) },
        { weight: 3, arbitrary: fc.integer({ min: -20_000, max: 20_000 }) },
      )
      .map((delta): PriceEdit => ({ kind: 'set', delta })),
  },
);

const extraIntentArbitrary: fc.Arbitrary<ExtraIntent> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('raiseMax' as const),
      step: stepArbitrary,
      actor: actorArbitrary(8),
      bid: existingBidArbitrary,
      max: raiseChoiceArbitrary,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('buyNow' as const),
      step: stepArbitrary,
      actor: actorArbitrary(10),
      bidder: fc.nat(4),
      exact: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('editPrices' as const),
      step: stepArbitrary,
      actor: actorArbitrary(8),
      reserve: priceEditArbitrary,
      buyNow: priceEditArbitrary,
    }),
  },
);

const extrasArbitrary: fc.Arbitrary<Extras> = fc.record({
  reserve: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 0) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 30_000 }) },
  ),
  buyNow: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 0) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 50_000 }) },
  ),
  maxima: fc.array(
    fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: maxChoiceArbitrary },
    ),
    { maxLength: 50 },
  ),
  inserts: fc.array(
    fc.record({ after: fc.integer({ min: -1, max: 46 }), intent: extraIntentArbitrary }),
    { maxLength: 8 },
  ),
});

/**
 * What the retraction rules add to a timeline, drawn last like {@link Extras}: auctions long enough
 * to retract in (not in the last hour), retractions at the edges of the grace period and the
 * closing hour, some by account deletion (which no rule limits), and edits that push the end away.
 */
interface Retractions {
  /** Added to an opening's ordinary duration (up to an hour). */
  longerMs: number;
  /** Intents spliced in after the `after`-th. */
  inserts: { after: number; intents: Intent[] }[];
}

/** On an edge, or a millisecond either side of it. */
const edgeArbitrary = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1) },
);

const retractionStepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: stepArbitrary },
  {
    weight: 1,
    arbitrary: edgeArbitrary.map((delta): Step => ({
      kind: 'wait',
      ms: rules.retraction.graceMs + delta,
    })),
  },
  {
    weight: 1,
    arbitrary: edgeArbitrary.map((delta): Step => ({
      kind: 'beforeEnd',
      ms: rules.retraction.closingMs + delta,
    })),
  },
);

const retractIntent = (step: Step, bid: BidRef, forDeletion = false): Intent => ({
  kind: 'retract',
  step,
  actor: { kind: 'natural' },
  bid,
  ...(forDeletion ? { forDeletion } : {}),
});

const postponeIntent = (ms: number): Intent => ({
  kind: 'editAuction',
  step: { kind: 'wait', ms: 0 },
  actor: { kind: 'natural' },
  title: undefined,
  startingPrice: undefined,
  endsAt: { kind: 'fromNow', ms },
});

const retractionInsertArbitrary: fc.Arbitrary<Intent[]> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        retractionStepArbitrary,
        fc.oneof(
          { weight: 2, arbitrary: existingBidArbitrary },
          { weight: 1, arbitrary: fc.constant<BidRef>({ kind: 'latest' }) },
        ),
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      )
      .map(([step, bid, forDeletion]) => [retractIntent(step, bid, forDeletion)]),
  },
  {
    // The seller pushes the end hours away, and the last bid's bidder tries to take it back.
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 2 * HOUR_MS, max: 6 * HOUR_MS }), stepArbitrary)
      .map(([ms, step]) => [postponeIntent(ms), retractIntent(step, { kind: 'latest' })]),
  },
);

const retractionsArbitrary: fc.Arbitrary<Retractions> = fc.record({
  longerMs: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.integer({ min: 10 * MINUTE_MS, max: 2 * HOUR_MS }) },
  ),
  inserts: fc.array(
    fc.record({ after: fc.integer({ min: -1, max: 40 }), intents: retractionInsertArbitrary }),
    { maxLength: 8 },
  ),
});

const WINDOWS_MS = [1_000, 30_000, 2 * MINUTE_MS, 10 * MINUTE_MS];
const EXTENSIONS_MS = [1_000, 45_000, 2 * MINUTE_MS, 5 * MINUTE_MS];

/**
 * Soft close for an opening, derived from its start rather than drawn: drawing would take from the
 * random stream and move every pinned counterexample's path. About half the auctions have one,
 * with windows and extensions within the steps' reach (waits of up to 3 minutes), often unequal.
 */
const softCloseOf = (startMs: number): Opening['softClose'] => {
  const k = Math.floor(startMs / 1000) % 20;
  if (k < 10) return null;
  return {
    windowMs: WINDOWS_MS[k % 4] ?? MINUTE_MS,
    extensionMs: EXTENSIONS_MS[Math.floor(k / 4) % 4] ?? MINUTE_MS,
  };
};

const INCREMENT_CHOICES: readonly (IncrementRule | undefined)[] = [
  undefined,
  'one-dollar',
  'table',
];

/**
 * The increment rule of an opening, derived from its start like the soft close (so the pinned
 * counterexamples keep their paths): a third name none, a third the one dollar, a third the table.
 */
const incrementsOf = (startMs: number): IncrementRule | undefined =>
  INCREMENT_CHOICES[Math.floor(startMs / 20_000) % INCREMENT_CHOICES.length];

const openingArbitrary: fc.Arbitrary<Opening> = fc
  .record({
    bidders: fc.integer({ min: 3, max: 5 }),
    startMs: fc.integer({ min: 0, max: 24 * HOUR_MS }).map((offset) => epochMs + offset),
    startingPrice: fc.oneof(
      {
        weight: 40,
        arbitrary: startingPriceArbitrary().filter((c) => c >= rules.minStartingPriceCents),
      },
      { weight: 1, arbitrary: fc.constant(rules.minStartingPriceCents - 1) },
    ),
    durationMs: fc.oneof(
      { weight: 60, arbitrary: fc.integer({ min: MINUTE_MS, max: HOUR_MS }) },
      { weight: 2, arbitrary: fc.constant(rules.maxAuctionDurationMs) },
      { weight: 1, arbitrary: fc.constant(rules.maxAuctionDurationMs + 1) },
      { weight: 1, arbitrary: fc.constant(0) },
    ),
    title: titleArbitrary(),
  })
  .map((opening) => ({
    ...opening,
    softClose: softCloseOf(opening.startMs),
    increments: incrementsOf(opening.startMs),
    reserve: null,
    buyNow: null,
  }));

/** Shapes the timelines of {@link timelineArbitrary}. */
export interface TimelineOptions {
  /** The one auction every command targets; `auction-1` by default. */
  auctionId?: string;
  /** Commands after the opening CreateAuction; 0 by default. */
  minLength?: number;
  /** Commands after the opening CreateAuction; 40 by default. */
  maxLength?: number;
}

/** The seller's id in generated timelines. */
export const TIMELINE_SELLER = 'seller';
/** The bidders' ids in generated timelines (3 to 5 of them take part). */
export const TIMELINE_BIDDERS = ['bidder-1', 'bidder-2', 'bidder-3', 'bidder-4', 'bidder-5'];

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

const toCommands = (
  auctionId: string,
  opening: Opening,
  intents: readonly Intent[],
  maxima: readonly (MaxChoice | null)[] = [],
) => {
  const model = createModel();
  const bidders = TIMELINE_BIDDERS.slice(0, opening.bidders);
  const bidOwners = new Map<string, string>();
  const knownBidIds: string[] = [];
  const commands: AuctionCommand[] = [];
  let nowMs = opening.startMs;
  let freshBids = 0;
  let unknownBids = 0;

  const metadata = (actorId: string): CommandMetadata => ({
    commandId: `cmd-${commands.length + 1}`,
    actorId,
    correlationId: `corr-${commands.length + 1}`,
    at: toIsoTime(nowMs),
  });
  const emit = (command: AuctionCommand): void => {
    commands.push(command);
    model.apply(command);
  };
  let crossed = false;
  const advance = (step: Step, view: ModelView): void => {
    const endMs = view.endsAt === null ? null : isoToMs(view.endsAt);
    if (step.kind === 'pastEnd') crossed = true;
    const target =
      step.kind === 'pastEnd'
        ? (endMs ?? nowMs) + step.offsetMs
        : step.kind === 'beforeEnd'
          ? (endMs ?? nowMs) - step.ms
          : crossed || endMs === null
            ? nowMs + step.ms
            : Math.min(nowMs + step.ms, endMs - 1);
    nowMs = Math.max(nowMs, target);
  };
  const actorOf = (actor: Actor, natural: string): string =>
    actor.kind === 'natural'
      ? natural
      : actor.kind === 'seller'
        ? TIMELINE_SELLER
        : (pick(bidders, actor.index) ?? natural);
  const resolveBid = (ref: BidRef, view: ModelView): string => {
    const active = view.bids.filter((b) => !b.retracted).map((b) => b.bidId);
    const known =
      ref.kind === 'known'
        ? pick(knownBidIds, ref.index)
        : ref.kind === 'active'
          ? (pick(active, ref.index) ?? pick(knownBidIds, ref.index))
          : ref.kind === 'latest'
            ? knownBidIds[knownBidIds.length - 1]
            : undefined;
    if (known !== undefined) return known;
    if (ref.kind !== 'unknown') {
      freshBids += 1;
      return `bid-${String(freshBids).padStart(3, '0')}`;
    }
    unknownBids += 1;
    return `ghost-${unknownBids}`;
  };
  const amountOf = (amount: Amount, view: ModelView, bidId: string): number => {
    const next =
      view.leadingBidId === null
        ? view.startingPrice
        : minimumRaise(view.currentBid, view.increments ?? 'one-dollar');
    const own = view.bids.find((b) => b.bidId === bidId)?.amount ?? view.currentBid;
    const base = {
      next,
      highest: view.currentBid,
      starting: view.startingPrice,
      own,
    }[amount.base];
    return Math.min(MAX_CENTS, Math.max(0, base + amount.delta));
  };
  const createCommand = (actorId: string, durationMs: number): CreateAuction => ({
    type: 'CreateAuction',
    data: {
      auctionId,
      title: opening.title,
      description: `About ${opening.title}`,
      categoryId: 'category-1',
      startingPrice: opening.startingPrice,
      endsAt: toIsoTime(nowMs + durationMs),
      image: null,
      ...(opening.increments === undefined ? {} : { increments: opening.increments }),
      ...(opening.softClose ? { softClose: opening.softClose } : {}),
      ...(opening.reserve === null ? {} : { reservePrice: opening.reserve }),
      ...(opening.buyNow === null ? {} : { buyNowPrice: opening.buyNow }),
    },
    metadata: metadata(actorId),
  });
  const maxOf = (choice: MaxChoice, amount: number, view: ModelView, bidId: string): number => {
    const active = view.bids.filter((b) => !b.retracted);
    const top = active.reduce((best, b) => Math.max(best, b.maxAmount), 0);
    const own = view.bids.find((b) => b.bidId === bidId)?.maxAmount ?? amount;
    const base = { amount, top, own }[choice.base];
    return Math.min(MAX_CENTS, Math.max(0, base + choice.delta));
  };
  const withMax = (index: number, amount: number, view: ModelView, bidId: string) => {
    const choice = maxima[index];
    return choice ? { maxAmount: maxOf(choice, amount, view, bidId) } : {};
  };
  const priceOf = (edit: PriceEdit | undefined, base: number): number | null | undefined =>
    edit === undefined ? undefined : edit.kind === 'remove' ? null : Math.max(0, base + edit.delta);

  emit(createCommand(TIMELINE_SELLER, opening.durationMs));

  for (const [index, intent] of intents.entries()) {
    const before = model.view();
    advance(intent.step, before);
    switch (intent.kind) {
      case 'place': {
        const bidder = pick(bidders, intent.bidder) ?? TIMELINE_SELLER;
        const actorId = actorOf(intent.actor, bidder);
        const bidId = resolveBid(intent.bid, before);
        if (!bidOwners.has(bidId)) {
          bidOwners.set(bidId, actorId);
          knownBidIds.push(bidId);
        }
        const amount = amountOf(intent.amount, before, bidId);
        emit({
          type: 'PlaceBid',
          data: { auctionId, bidId, amount, ...withMax(index, amount, before, bidId) },
          metadata: metadata(actorId),
        });
        break;
      }
      case 'edit': {
        const bidId = resolveBid(intent.bid, before);
        const amount = amountOf(intent.amount, before, bidId);
        emit({
          type: 'EditBid',
          data: { auctionId, bidId, amount, ...withMax(index, amount, before, bidId) },
          metadata: metadata(actorOf(intent.actor, bidOwners.get(bidId) ?? TIMELINE_SELLER)),
        });
        break;
      }
      case 'raiseMax': {
        const bidId = resolveBid(intent.bid, before);
        const own = before.bids.find((b) => b.bidId === bidId)?.amount ?? before.currentBid;
        emit({
          type: 'EditBid',
          data: { auctionId, bidId, maxAmount: maxOf(intent.max, own, before, bidId) },
          metadata: metadata(actorOf(intent.actor, bidOwners.get(bidId) ?? TIMELINE_SELLER)),
        });
        break;
      }
      case 'buyNow': {
        const bidder = pick(bidders, intent.bidder) ?? TIMELINE_SELLER;
        const price = before.buyNowPrice ?? opening.startingPrice;
        const bidId = resolveBid({ kind: 'fresh' }, before);
        bidOwners.set(bidId, bidder);
        knownBidIds.push(bidId);
        emit({
          type: 'BuyNow',
          data: { auctionId, bidId, price: intent.exact ? price : price + 1 },
          metadata: metadata(actorOf(intent.actor, bidder)),
        });
        break;
      }
      case 'editPrices': {
        const data: EditAuction['data'] = { auctionId };
        const reserve = priceOf(intent.reserve, before.reservePrice ?? before.startingPrice);
        const buyNow = priceOf(
          intent.buyNow,
          Math.max(before.startingPrice, reserve ?? before.reservePrice ?? 0),
        );
        if (reserve !== undefined) data.reservePrice = reserve;
        if (buyNow !== undefined) data.buyNowPrice = buyNow;
        emit({
          type: 'EditAuction',
          data,
          metadata: metadata(actorOf(intent.actor, TIMELINE_SELLER)),
        });
        break;
      }
      case 'retract': {
        const bidId = resolveBid(intent.bid, before);
        emit({
          type: 'RetractBid',
          data: { auctionId, bidId, ...(intent.forDeletion ? { reason: 'account-deleted' } : {}) },
          metadata: metadata(actorOf(intent.actor, bidOwners.get(bidId) ?? TIMELINE_SELLER)),
        });
        break;
      }
      case 'editAuction': {
        const currentEnd = before.endsAt === null ? nowMs : isoToMs(before.endsAt);
        const price = intent.startingPrice;
        const end = intent.endsAt;
        const data: EditAuction['data'] = { auctionId };
        if (intent.title !== undefined) data.title = intent.title;
        if (price !== undefined) {
          data.startingPrice = price.kind === 'same' ? before.startingPrice : price.cents;
        }
        if (end !== undefined) {
          const endMs =
            end.kind === 'same'
              ? currentEnd
              : end.kind === 'shift'
                ? currentEnd + end.ms
                : nowMs + end.ms;
          data.endsAt = toIsoTime(endMs);
        }
        emit({
          type: 'EditAuction',
          data,
          metadata: metadata(actorOf(intent.actor, TIMELINE_SELLER)),
        });
        break;
      }
      case 'cancel':
        emit({
          type: 'CancelAuction',
          data: { auctionId, reason: 'seller' },
          metadata: metadata(actorOf(intent.actor, TIMELINE_SELLER)),
        });
        break;
      case 'close':
        emit({
          type: 'CloseAuction',
          data: { auctionId },
          metadata: metadata(actorOf(intent.actor, SYSTEM_ACTOR)),
        });
        break;
      case 'create':
        emit(createCommand(actorOf(intent.actor, TIMELINE_SELLER), HOUR_MS));
        break;
      default: {
        const unexpected: never = intent;
        throw new Error(`Unknown intent ${JSON.stringify(unexpected)}`);
      }
    }
  }
  return commands;
};

/**
 * Command sequences for one auction: a CreateAuction, then bids, edits, retractions, auction edits,
 * cancellations and closes from a seller and 3-5 bidders at non-decreasing times, mostly ending at
 * or after the end time. Amounts are chosen against the reference model's state so they land on
 * the rule boundaries (the minimum next bid, one cent below it, the starting price, ...).
 */
export const timelineArbitrary = (
  options: TimelineOptions = {},
): fc.Arbitrary<AuctionCommand[]> => {
  const maxLength = options.maxLength ?? 40;
  return fc
    .tuple(
      openingArbitrary,
      fc.array(intentArbitrary, { minLength: options.minLength ?? 0, maxLength, size: 'max' }),
      crossingArbitrary,
      fc.array(afterEndIntentArbitrary, { maxLength: 6, size: 'max' }),
      extrasArbitrary,
      retractionsArbitrary,
    )
    .map(([opening, live, crossing, afterEnd, extras, retractions]) => {
      const pastEnd = afterEnd.map((intent, i) =>
        i === 0 ? { ...intent, step: crossing } : intent,
      );
      const planned = [...live, ...pastEnd].slice(0, maxLength);
      const intents: Intent[] = [];
      const maxima: (MaxChoice | null)[] = [];
      const allInserts = [
        ...extras.inserts.map(({ after, intent }) => ({ after, intents: [intent] })),
        ...retractions.inserts,
      ];
      const insertsAfter = (i: number) =>
        allInserts.filter((insert) => insert.after === i).flatMap((insert) => insert.intents);
      intents.push(...insertsAfter(-1));
      planned.forEach((intent, i) => {
        maxima[intents.length] = extras.maxima[i] ?? null;
        intents.push(intent, ...insertsAfter(i));
      });
      for (const insert of allInserts)
        if (insert.after >= planned.length) intents.push(...insert.intents);
      const reserve =
        extras.reserve === null ? null : Math.max(0, opening.startingPrice + extras.reserve);
      const buyNow =
        extras.buyNow === null
          ? null
          : Math.max(0, Math.max(opening.startingPrice, reserve ?? 0) + extras.buyNow);
      const ordinary = opening.durationMs >= MINUTE_MS && opening.durationMs <= HOUR_MS;
      const durationMs = ordinary ? opening.durationMs + retractions.longerMs : opening.durationMs;
      return toCommands(
        options.auctionId ?? 'auction-1',
        { ...opening, durationMs, reserve, buyNow },
        intents.slice(0, maxLength),
        maxima,
      );
    });
};
