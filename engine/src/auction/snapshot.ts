import { hash } from 'node:crypto';
import { Map as ImmutableMap } from 'immutable';
import { type AuctionStatus, summaryChange } from '@auction/contracts';
import type { OutcomeBid } from '../command-bus/command-bus';
import {
  type CommittedCommand,
  type LearnedCommand,
  bidAfter,
  committedCommand,
  enteredBid,
  learnEvent,
} from './command-dedup';
import type { AuctionState, BidState, BidderState } from './decider-types';
import { evolve } from './evolve';
import { initialState } from './state';
import type { StoredSnapshot } from '../event-store/snapshot-store';

/**
 * Bump when the payload's layout or the fold's meaning changes (including the helpers `evolve`
 * calls, whose text the fingerprint below does not cover).
 */
const FORMAT = 6;

/**
 * What the snapshot's meaning depends on: its layout, the fold (`evolve` and the shared
 * `summaryChange`), what the dedup record
 * keeps, and the state's fields. A snapshot written by code where any of them differs has another
 * version and is ignored, so the actor folds the stream. The fingerprint catches an edit to these
 * functions' own text that forgot to bump `FORMAT`; it is a second guard, not the first.
 */
export const SNAPSHOT_VERSION = `${FORMAT}:${hash(
  'sha256',
  [
    evolve.toString(),
    summaryChange.toString(),
    learnEvent.toString(),
    committedCommand.toString(),
    enteredBid.toString(),
    bidAfter.toString(),
    Object.keys(initialState).join(','),
  ].join('\n'),
  'hex',
).slice(0, 16)}`;

/** The committed view an actor snapshots: the same fields as its in-memory snapshot. */
export interface ActorView {
  readonly state: AuctionState;
  readonly revision: number;
  readonly headHash: string;
}

type BidRow = [
  bidId: string,
  bidderId: string,
  amount: number,
  placedAt: string,
  retracted: 0 | 1,
  maxAmount: number,
  maxSeq: number,
  automatic: 0 | 1,
  enteredAt: string,
  retractedAt: string | null,
  bound: 0 | 1,
];
type BidderRow = [bidderId: string, retractions: number, answered: 0 | 1];
type CommandRow = [
  commandId: string,
  first: number,
  last: number,
  position: number,
  currentBid: number,
  leadingBidId: string | null,
  status: AuctionStatus,
  /** `RequestSeal` as `[salt, check]`, when the command has one (null: none, and a bid follows). */
  request?: [salt: string, check: string] | null,
  bid?: OutcomeBidRow,
];
/** A command's `OutcomeBid`; its bidder and placement time are the state's bid's, which never change. */
type OutcomeBidRow = [
  bidId: string,
  amount: number,
  maxAmount: number,
  automatic: 0 | 1,
  retracted: 0 | 1,
  entryRevision: number,
  entryAmount: number,
  endsAt?: string,
];

const outcomeBidRow = (bid: OutcomeBid): OutcomeBidRow => {
  const row: OutcomeBidRow = [
    bid.bidId,
    bid.amount,
    bid.maxAmount,
    bid.automatic ? 1 : 0,
    bid.retracted ? 1 : 0,
    bid.entryRevision,
    bid.entryAmount,
  ];
  if (bid.endsAt !== undefined) row.push(bid.endsAt);
  return row;
};

/** The `OutcomeBid` of a row, its bidder and placement time read from `bids` (throws if absent). */
const outcomeBidOf = (
  [
    bidId,
    amount,
    maxAmount,
    automatic,
    retracted,
    entryRevision,
    entryAmount,
    endsAt,
  ]: OutcomeBidRow,
  bids: AuctionState['bids'],
): OutcomeBid => {
  const bid = bids.get(bidId);
  if (bid === undefined) throw new Error(`Snapshot names bid ${bidId}, which its state lacks`);
  return {
    bidId,
    bidderId: bid.bidderId,
    amount,
    maxAmount,
    placedAt: bid.placedAt,
    automatic: automatic === 1,
    retracted: retracted === 1,
    entryRevision,
    entryAmount,
    ...(endsAt === undefined ? {} : { endsAt }),
  };
};

interface Payload {
  readonly headHash: string;
  readonly state: Omit<AuctionState, 'bids' | 'bidders'>;
  /** In the state map's own iteration order, so the rebuilt map iterates alike. */
  readonly bids: BidRow[];
  /** Likewise. */
  readonly bidders: BidderRow[];
  readonly commands: CommandRow[];
}

/**
 * The snapshot of `view` with the commands committed up to its revision (the exactly-once record:
 * a command redelivered after the reload still gets its original outcome).
 */
export const encodeSnapshot = (
  view: ActorView,
  commands: Iterable<[string, CommittedCommand]>,
): StoredSnapshot => {
  const { bids, bidders, ...scalars } = view.state;
  const bidRows: BidRow[] = [];
  for (const bid of bids.values())
    bidRows.push([
      bid.bidId,
      bid.bidderId,
      bid.amount,
      bid.placedAt,
      bid.retracted ? 1 : 0,
      bid.maxAmount,
      bid.maxSeq,
      bid.automatic ? 1 : 0,
      bid.enteredAt,
      bid.retractedAt,
      bid.bound ? 1 : 0,
    ]);
  const bidderRows: BidderRow[] = [];
  for (const [bidderId, bidder] of bidders)
    bidderRows.push([bidderId, bidder.retractions, bidder.answered ? 1 : 0]);
  const commandRows: CommandRow[] = [];
  for (const [commandId, record] of commands) {
    if (record.last > view.revision) continue;
    const row: CommandRow = [
      commandId,
      record.first,
      record.last,
      record.position,
      record.currentBid,
      record.leadingBidId,
      record.status,
    ];
    if (record.request || record.bid)
      row.push(record.request ? [record.request.salt, record.request.check] : null);
    if (record.bid) row.push(outcomeBidRow(record.bid));
    commandRows.push(row);
  }
  const payload: Payload = {
    headHash: view.headHash,
    state: scalars,
    bids: bidRows,
    bidders: bidderRows,
    commands: commandRows,
  };
  return { revision: view.revision, version: SNAPSHOT_VERSION, payload: JSON.stringify(payload) };
};

/** The view and commands of a stored snapshot, or undefined when it is of another version or malformed. */
export const decodeSnapshot = (
  stored: StoredSnapshot,
): { view: ActorView; commands: LearnedCommand[] } | undefined => {
  if (stored.version !== SNAPSHOT_VERSION || !Number.isSafeInteger(stored.revision))
    return undefined;
  try {
    const payload = JSON.parse(stored.payload) as Payload;
    if (typeof payload.headHash !== 'string') return undefined;
    const bids = ImmutableMap<string, BidState>().withMutations((map) => {
      for (const [
        bidId,
        bidderId,
        amount,
        placedAt,
        retracted,
        maxAmount,
        maxSeq,
        automatic,
        enteredAt,
        retractedAt,
        bound,
      ] of payload.bids)
        map.set(bidId, {
          bidId,
          bidderId,
          amount,
          maxAmount,
          maxSeq,
          placedAt,
          enteredAt,
          retracted: retracted === 1,
          retractedAt,
          automatic: automatic === 1,
          bound: bound === 1,
        });
    });
    const bidders = ImmutableMap<string, BidderState>().withMutations((map) => {
      for (const [bidderId, retractions, answered] of payload.bidders)
        map.set(bidderId, { retractions, answered: answered === 1 });
    });
    const state: AuctionState = { ...initialState, ...payload.state, bids, bidders };
    const commands: LearnedCommand[] = payload.commands.map(
      ([commandId, first, last, position, currentBid, leadingBidId, status, request, bid]) => ({
        commandId,
        record: {
          first,
          last,
          position,
          currentBid,
          leadingBidId,
          status,
          ...(bid === undefined ? {} : { bid: outcomeBidOf(bid, bids) }),
          ...(request == null ? {} : { request: { salt: request[0], check: request[1] } }),
        },
      }),
    );
    return { view: { state, revision: stored.revision, headHash: payload.headHash }, commands };
  } catch {
    return undefined;
  }
};
