import {
  type AuctionCommand,
  AuctionEvent,
  type AuctionStatus,
  EventMetadata,
} from '@auction/contracts';
import { saltedRequest } from '../chain/hash-chain';
import type { CommandOutcome, CommittedEvent, OutcomeBid } from '../command-bus/command-bus';
import type { RecordedEvent } from '../event-store/event-store';
import type { AuctionState, BidState } from './decider-types';

/**
 * Exactly-once effect for redelivered commands. The stream is the record (each event carries its
 * command id), so per committed command the actor keeps only its revision range, the state after
 * it and its bid: about 175 bytes, plus 105 for a bid, with no cap on purpose (a bound would make
 * exactly-once depend on how late a retry comes). Refusals and no-ops are decided again. More: the
 * README's "Exactly-once effect".
 */
export interface CommittedCommand {
  /** Revision of the command's first event. */
  readonly first: number;
  /** Revision of its last event: the `revision` of its outcome. */
  readonly last: number;
  /**
   * The outcome's global position. When this actor committed the command: what its caller got, the
   * position of the last event of the whole append (batch). When learned from the stream (load,
   * catch-up after a conflict): the position of the command's own last event, because the stream
   * does not record where appends began and ended. Both are at or after the command's events, so
   * both serve read-your-writes; they are equal whenever the command ended its batch.
   */
  readonly position: number;
  readonly currentBid: number;
  readonly leadingBidId: string | null;
  readonly status: AuctionStatus;
  /** A bidding command's bid after it (`OutcomeBid`), as its outcome carries it. */
  readonly bid?: OutcomeBid;
  /**
   * A command sent with an Idempotency-Key: its first event's salt and salted request digest
   * (`metadata.request`), so a redelivery that asks something else is told apart.
   */
  readonly request?: RequestSeal;
}

/** `metadata.salt` and `metadata.request` of a command's first event. */
export interface RequestSeal {
  readonly salt: string;
  readonly check: string;
}

/** The request seal in an event's metadata, if it has one. */
export const requestSealOf = (metadata: {
  readonly salt?: string | undefined;
  readonly request?: string | undefined;
}): RequestSeal | undefined =>
  metadata.salt !== undefined && metadata.request !== undefined
    ? { salt: metadata.salt, check: metadata.request }
    : undefined;

/**
 * Whether `command` asks what the committed command of its id asked. A command or record without
 * a request digest (no Idempotency-Key, or written before digests) cannot be told apart: same.
 */
export const sameRequest = (record: CommittedCommand, command: AuctionCommand): boolean => {
  const digest = command.metadata.requestDigest;
  if (record.request === undefined || digest === undefined) return true;
  return saltedRequest(record.request.salt, digest) === record.request.check;
};

/** A command found in a stretch of the stream, in stream order. */
export interface LearnedCommand {
  readonly commandId: string;
  readonly record: CommittedCommand;
}

/** The record of a command whose events are at revisions `first..last`, with the state after them. */
export const committedCommand = (
  first: number,
  last: number,
  position: number,
  state: AuctionState,
  request: RequestSeal | undefined,
  bid: OutcomeBid | undefined,
): CommittedCommand => ({
  first,
  last,
  position,
  currentBid: state.currentBid,
  leadingBidId: state.leadingBidId,
  status: state.status,
  ...(bid === undefined ? {} : { bid }),
  ...(request === undefined ? {} : { request }),
});

/** The end a bid's event moved the auction to (soft close), if it moved it. */
const movedEnd = (event: AuctionEvent): string | undefined =>
  event.type === 'BidPlaced' || event.type === 'BidEdited' || event.type === 'AutomaticBidPlaced'
    ? event.data.endsAt
    : undefined;

/** The bid a command's first event enters for its bidder, if it is one of a bid's own events. */
const enteredBidId = (event: AuctionEvent): string | undefined =>
  event.type === 'BidPlaced' ||
  event.type === 'BidEdited' ||
  event.type === 'BidMaximumRaised' ||
  event.type === 'BidRetracted'
    ? event.data.bidId
    : undefined;

const outcomeBid = (
  bid: BidState,
  entry: Pick<OutcomeBid, 'entryRevision' | 'entryAmount'>,
  endsAt: string | undefined,
): OutcomeBid => ({
  bidId: bid.bidId,
  bidderId: bid.bidderId,
  amount: bid.amount,
  maxAmount: bid.maxAmount,
  placedAt: bid.placedAt,
  automatic: bid.automatic,
  retracted: bid.retracted,
  entryRevision: entry.entryRevision,
  entryAmount: entry.entryAmount,
  ...(endsAt === undefined ? {} : { endsAt }),
});

/**
 * The bid a command's first event (at `revision`, `state` right after it) enters: undefined when
 * the command is not a bidding one. `bidAfter` follows it through the command's later events. The
 * actor deciding the command and a reader of the stream fold the same events, so both build the
 * same value.
 */
export const enteredBid = (
  event: AuctionEvent,
  revision: number,
  state: AuctionState,
): OutcomeBid | undefined => {
  const bidId = enteredBidId(event);
  const bid = bidId === undefined ? undefined : state.bids.get(bidId);
  if (bid === undefined) return undefined;
  return outcomeBid(bid, { entryRevision: revision, entryAmount: bid.amount }, movedEnd(event));
};

/** The command's bid once one more of its events (an automatic bid) is folded into `state`. */
export const bidAfter = (
  entered: OutcomeBid | undefined,
  event: AuctionEvent,
  state: AuctionState,
): OutcomeBid | undefined => {
  const bid = entered === undefined ? undefined : state.bids.get(entered.bidId);
  if (entered === undefined || bid === undefined) return entered;
  return outcomeBid(bid, entered, movedEnd(event) ?? entered.endsAt);
};

/**
 * Adds one event, read in stream order, with the state right after it, to `learned`: it extends
 * the run of the previous event when both belong to one command, else starts a new run (whose
 * request seal is this first event's).
 */
export const learnEvent = (
  learned: LearnedCommand[],
  metadata: Pick<EventMetadata, 'commandId' | 'salt' | 'request'>,
  recorded: Pick<RecordedEvent, 'revision' | 'position'>,
  event: AuctionEvent,
  state: AuctionState,
): void => {
  const { commandId } = metadata;
  const { revision, position } = recorded;
  const previous = learned[learned.length - 1];
  if (previous?.commandId === commandId && previous.record.last === revision - 1) {
    const { first, request, bid } = previous.record;
    learned[learned.length - 1] = {
      commandId,
      record: committedCommand(
        first,
        revision,
        position,
        state,
        request,
        bidAfter(bid, event, state),
      ),
    };
    return;
  }
  learned.push({
    commandId,
    record: committedCommand(
      revision,
      revision,
      position,
      state,
      requestSealOf(metadata),
      enteredBid(event, revision, state),
    ),
  });
};

/** The commands an actor knows to be committed in its stream, by command id. */
export class CommittedCommands {
  private readonly byId = new Map<string, CommittedCommand>();

  get(commandId: string): CommittedCommand | undefined {
    return this.byId.get(commandId);
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Remembers a committed command. The first record of an id wins: what the actor answered
   * itself is kept over what a later re-read tells, and should a stream hold one command id twice
   * (written by something that does not deduplicate), its first run is the original.
   */
  remember(commandId: string, record: CommittedCommand): void {
    if (!this.byId.has(commandId)) this.byId.set(commandId, record);
  }

  /** Every remembered command (what a snapshot keeps). */
  entries(): IterableIterator<[string, CommittedCommand]> {
    return this.byId.entries();
  }

  /** Remembers what a read of the stream showed, in stream order. */
  learn(learned: readonly LearnedCommand[]): void {
    for (const { commandId, record } of learned) this.remember(commandId, record);
  }
}

/** A stored event as a command's outcome lists it, validated. */
export const committedEventOf = (recorded: RecordedEvent): CommittedEvent => ({
  ...AuctionEvent.parse({ type: recorded.type, data: recorded.data }),
  id: recorded.id,
  revision: recorded.revision,
  metadata: EventMetadata.parse(recorded.metadata),
});

/**
 * The original outcome of a committed command, from its record and the stored events of its
 * revision range (`read` may hold more: only the range is taken). Throws when the stream does not
 * hold the command there, which only a changed store can cause.
 */
export const replayedOutcome = (
  auctionId: string,
  commandId: string,
  record: CommittedCommand,
  read: readonly RecordedEvent[],
): CommandOutcome => {
  const start = read.findIndex((event) => event.revision === record.first);
  const range = start < 0 ? [] : read.slice(start, start + record.last - record.first + 1);
  const events = range.map(committedEventOf);
  const intact =
    events.length === record.last - record.first + 1 &&
    events.every(
      (event, index) =>
        event.revision === record.first + index && event.metadata.commandId === commandId,
    );
  if (!intact) {
    throw new Error(
      `Command ${commandId} is not at revisions ${record.first}..${record.last} of auction ${auctionId}`,
    );
  }
  return {
    ok: true,
    auctionId,
    events,
    revision: record.last,
    position: record.position,
    currentBid: record.currentBid,
    leadingBidId: record.leadingBidId,
    status: record.status,
    ...(record.bid === undefined ? {} : { bid: record.bid }),
  };
};

/** Whether `read` (a contiguous stretch of the stream) holds the whole range of `record`. */
export const covers = (read: readonly RecordedEvent[], record: CommittedCommand): boolean => {
  const from = read[0]?.revision;
  return from !== undefined && record.first >= from && record.last < from + read.length;
};
