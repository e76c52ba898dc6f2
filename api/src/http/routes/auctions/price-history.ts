import {
  DomainError,
  PRICE_HISTORY_PAGE,
  type AuctionEvent,
  type FoldedSummary,
  type PriceHistoryEntry,
  type PublicUser,
  asAuctionEvent,
  auctionStream,
  centsToDollars,
  deletedUser,
  noAuction,
  reserveStatus,
  priceHistoryOperations as ops,
  rejection,
  summaryChange,
} from '@auction/contracts';
import type { RecordedEvent } from '@auction/engine';
import type { AppDeps } from '../../../app-deps';
import { clientAddress, limiter } from '../../middleware/rate-limit';
import { respond } from '../../respond';
import type { routesOn } from '../../route';

/**
 * An auction's public price history, answered from its event stream (the log is the record; no
 * read model holds every bid's moves). A page reads at most `CHECKPOINT_EVERY + limit` events:
 * the fold's public summary is kept every `CHECKPOINT_EVERY` revisions per auction (a bounded
 * cache, in this process), so a page far into a long stream starts from the checkpoint below it
 * instead of the stream's start. What is kept and answered is the summary `summaryChange` folds
 * (the reserve's amount is used, never answered: only `reserveStatus`); bidders' maxima are never
 * read out of an event.
 */

/** Revisions between two kept fold states of one auction. */
export const CHECKPOINT_EVERY = 100;
/** Auctions whose fold states are kept (least recently used forgotten first). */
const AUCTIONS_KEPT = 500;

type Entry = Omit<PriceHistoryEntry, 'bidder'> & { readonly bidderId: string | null };

const dollars = (cents: number): number => centsToDollars(cents);

const entryOf = (
  event: AuctionEvent,
  revision: number,
  before: FoldedSummary,
  after: FoldedSummary,
): Entry | undefined => {
  const base = {
    revision,
    at: event.data.at,
    bidId: null,
    bidderId: null,
    amount: null,
    previousAmount: null,
    priceBefore: dollars(before.currentBid),
    price: dollars(after.currentBid),
    reserve: reserveStatus(after),
    reserveMet: reserveStatus(before) !== 'met' && reserveStatus(after) === 'met',
    extended: false,
    endsAt: null,
    outcome: null,
    boughtNow: false,
    reserveNotMet: false,
    outbidByProxy: false,
  } satisfies Omit<Entry, 'kind'>;
  switch (event.type) {
    case 'AuctionCreated':
      return {
        ...base,
        kind: 'opened',
        amount: dollars(event.data.startingPrice),
        endsAt: event.data.endsAt,
      };
    case 'AuctionEdited': {
      const { startingPrice, endsAt } = event.data;
      // Only what the public sees: a change of the reserve or Buy It Now amount is not a price move.
      if (startingPrice === undefined && endsAt === undefined && !base.reserveMet) return undefined;
      return {
        ...base,
        kind: 'edited',
        amount: dollars(after.startingPrice),
        endsAt: endsAt ?? null,
      };
    }
    case 'BidPlaced':
    case 'BidEdited':
    case 'AutomaticBidPlaced': {
      const d = event.data;
      return {
        ...base,
        kind:
          event.type === 'BidPlaced' ? 'bid' : event.type === 'BidEdited' ? 'raise' : 'automatic',
        bidId: d.bidId,
        bidderId: d.bidderId,
        amount: dollars(d.amount),
        previousAmount: 'previousAmount' in d ? dollars(d.previousAmount) : null,
        extended: d.endsAt !== undefined,
        endsAt: d.endsAt ?? null,
        outbidByProxy: 'outbidByProxy' in d && d.outbidByProxy === true,
      };
    }
    case 'BidRetracted':
      return {
        ...base,
        kind: 'retraction',
        bidId: event.data.bidId,
        bidderId: event.data.bidderId,
        amount: dollars(event.data.amount),
      };
    case 'AuctionClosed': {
      const d = event.data;
      return d.outcome === 'Sold'
        ? {
            ...base,
            kind: 'closed',
            bidId: d.winningBidId,
            bidderId: d.winnerId,
            amount: dollars(d.finalPrice),
            outcome: 'Sold',
            boughtNow: d.boughtNow === true,
          }
        : { ...base, kind: 'closed', outcome: 'Expired', reserveNotMet: d.reserveNotMet === true };
    }
    case 'AuctionCancelled':
      return { ...base, kind: 'cancelled' };
    case 'BidMaximumRaised':
    case 'AuctionEndingSoon':
      return undefined;
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

const fold = (summary: FoldedSummary, event: AuctionEvent): FoldedSummary => ({
  ...summary,
  ...summaryChange(event),
});

/** One page of the history: entries of the revisions after `after`, at most `limit` revisions read. */
export interface PriceHistoryPage {
  readonly status: Exclude<FoldedSummary['status'], 'None'>;
  readonly entries: PriceHistoryEntry[];
  readonly lastRevision: number;
  readonly nextAfter: number | null;
}

/** The log (two reads of one stream) and the names of bidders. */
interface Deps {
  readonly events: Pick<AppDeps['events'], 'readStream' | 'streamRevision'>;
  readonly users: AppDeps['users'];
}

export class PriceHistory {
  /** Per auction: the fold's summary before revision `k * CHECKPOINT_EVERY`, by k. */
  private readonly kept = new Map<string, Map<number, FoldedSummary>>();

  constructor(private readonly deps: Deps) {}

  /** The page after `after` (-1: from the start); undefined when the auction does not exist. */
  async page(
    auctionId: string,
    after: number,
    limit: number,
  ): Promise<PriceHistoryPage | undefined> {
    const stream = auctionStream(auctionId);
    const lastRevision = await this.deps.events.streamRevision(stream);
    if (lastRevision === undefined) return undefined;
    const from = Math.min(after + 1, lastRevision + 1);
    const to = Math.min(from + limit - 1, lastRevision);
    let { revision, summary } = await this.stateBefore(stream, auctionId, from);
    const raw: Entry[] = [];
    if (from <= to) {
      const events = await this.deps.events.readStream(stream, {
        fromRevision: revision,
        toRevision: to,
      });
      for (const recorded of events) {
        const event = this.eventOf(recorded);
        const before = summary;
        if (event) summary = fold(summary, event);
        revision = recorded.revision + 1;
        this.keep(auctionId, revision, summary);
        if (event && recorded.revision >= from) {
          const entry = entryOf(event, recorded.revision, before, summary);
          if (entry) raw.push(entry);
        }
      }
    }
    // The status as it stands at the stream's last revision, not the page's: read its first event
    // and the status only from a cheap source: the fold when the page reached the end, else a
    // read of the last event (cancellation and the close are the only status changes, both last).
    const status =
      to === lastRevision ? summary.status : await this.statusAt(stream, lastRevision, summary);
    return {
      status: status === 'None' ? 'Live' : status,
      entries: await this.named(raw),
      lastRevision,
      nextAfter: to < lastRevision ? to : null,
    };
  }

  private eventOf(recorded: RecordedEvent): AuctionEvent | undefined {
    return asAuctionEvent(recorded);
  }

  /** The fold's summary before `revision`, from the nearest kept state at or below it. */
  private async stateBefore(
    stream: string,
    auctionId: string,
    revision: number,
  ): Promise<{ revision: number; summary: FoldedSummary }> {
    const states = this.kept.get(auctionId);
    if (states) {
      // Used: to the back of the map's order (least recently used is first).
      this.kept.delete(auctionId);
      this.kept.set(auctionId, states);
    }
    for (let k = Math.floor(revision / CHECKPOINT_EVERY); k > 0; k--) {
      const known = states?.get(k);
      if (known) return this.foldTo(stream, auctionId, k * CHECKPOINT_EVERY, known, revision);
    }
    return this.foldTo(stream, auctionId, 0, noAuction, revision);
  }

  /** Folds from `start` (with `summary` before it) to just before `revision`, keeping checkpoints. */
  private async foldTo(
    stream: string,
    auctionId: string,
    start: number,
    summary: FoldedSummary,
    revision: number,
  ): Promise<{ revision: number; summary: FoldedSummary }> {
    let folded = summary;
    // In chunks, so a first read deep into a long stream holds no more than a chunk at once.
    for (let from = start; from < revision; from += CHECKPOINT_EVERY) {
      const to = Math.min(from + CHECKPOINT_EVERY, revision) - 1;
      for (const recorded of await this.deps.events.readStream(stream, {
        fromRevision: from,
        toRevision: to,
      })) {
        const event = this.eventOf(recorded);
        if (event) folded = fold(folded, event);
        this.keep(auctionId, recorded.revision + 1, folded);
      }
    }
    return { revision, summary: folded };
  }

  private keep(auctionId: string, before: number, summary: FoldedSummary): void {
    if (before % CHECKPOINT_EVERY !== 0 || before === 0) return;
    let states = this.kept.get(auctionId);
    if (!states) {
      if (this.kept.size >= AUCTIONS_KEPT) {
        const oldest = this.kept.keys().next().value;
        if (oldest !== undefined) this.kept.delete(oldest);
      }
      states = new Map();
      this.kept.set(auctionId, states);
    }
    states.set(before / CHECKPOINT_EVERY, summary);
  }

  private async statusAt(
    stream: string,
    lastRevision: number,
    folded: FoldedSummary,
  ): Promise<FoldedSummary['status']> {
    const [last] = await this.deps.events.readStream(stream, {
      fromRevision: lastRevision,
      toRevision: lastRevision,
    });
    const event = last ? this.eventOf(last) : undefined;
    if (event?.type === 'AuctionCancelled') return 'Cancelled';
    if (event?.type === 'AuctionClosed') return event.data.outcome;
    return folded.status === 'Cancelled' ? 'Cancelled' : 'Live';
  }

  private async named(entries: readonly Entry[]): Promise<PriceHistoryEntry[]> {
    const ids = [...new Set(entries.flatMap((entry) => (entry.bidderId ? [entry.bidderId] : [])))];
    const users: ReadonlyMap<string, PublicUser> =
      ids.length === 0 ? new Map() : await this.deps.users.lookup(ids);
    return entries.map(({ bidderId, ...entry }) => ({
      ...entry,
      bidder: bidderId === null ? null : (users.get(bidderId) ?? deletedUser(bidderId)),
    }));
  }
}

/**
 * `GET /auction/history`: anyone, a page at a time, limited per client address
 * (`RATE_LIMIT_HISTORY`). An unknown auction is 404 as its detail is; a cancelled one answers its
 * history to its cancellation, as its detail answers its view.
 */
export const priceHistoryRoute = (route: ReturnType<typeof routesOn>, deps: AppDeps): void => {
  const history = new PriceHistory(deps);
  const limited = limiter({
    windowMs: 60_000,
    limit: deps.config.RATE_LIMIT_HISTORY,
    key: clientAddress,
    message: 'Too many price history requests, please slow down',
    store: deps.rateLimits('history'),
  });
  route(ops.priceHistory, limited, async (_req, res, { query }) => {
    const { auctionId, after = -1, limit = PRICE_HISTORY_PAGE } = query();
    const page = await history.page(auctionId, after, limit);
    if (!page) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    respond(res, 200, 'Price History Fetched', { auctionId, ...page });
  });
};
