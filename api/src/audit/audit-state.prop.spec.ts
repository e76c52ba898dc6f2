import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  type AuctionEvent,
  type AuditState,
  centsToDollars,
  toIsoTime,
} from '@auction/contracts';
import { type AuctionState, SqliteEventStore, evolve, initialState } from '@auction/engine';
import { SqliteReadStore } from '@auction/projections';
import { ReadStoreUserDirectory } from '@auction/projections/testing';
import { timelineArbitrary } from '@auction/testkit';
import { recordCommands } from '@auction/engine/testing';
import { AuctionAudit } from './auction-audit';

const AUCTION = 'auction-1';
const numRuns = Number(process.env.FC_NUM_RUNS ?? 100);
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

/** What the state answer must say, computed straight from a fold of the given events. */
const expected = (events: readonly AuctionEvent[]) => {
  const state: AuctionState = events.reduce(evolve, initialState);
  return {
    revision: events.length === 0 ? null : events.length - 1,
    status: state.status,
    title: state.title,
    startingPrice: centsToDollars(state.startingPrice),
    endsAt: state.endsAt,
    currentBid: centsToDollars(state.currentBid),
    leadingBidId: state.leadingBidId,
    winnerId: state.winnerId,
    finalPrice: state.finalPrice === null ? null : centsToDollars(state.finalPrice),
    bids: [...state.bids.values()]
      .filter((bid) => !bid.retracted)
      .map((bid) => [bid.bidId, bid.bidderId, centsToDollars(bid.amount)])
      .sort(),
  };
};

const actual = (state: AuditState) => ({
  revision: state.revision,
  status: state.status,
  title: state.title,
  startingPrice: state.startingPrice,
  endsAt: state.endsAt,
  currentBid: state.currentBid,
  leadingBidId: state.leadingBidId,
  winnerId: state.winner?._id ?? null,
  finalPrice: state.finalPrice,
  bids: state.bids.map((bid) => [bid._id, bid.bidder._id, bid.amount]).sort(),
});

const highestFirst = (state: AuditState): boolean =>
  state.bids.every((bid, i) => i === 0 || (state.bids[i - 1]?.amount ?? 0) >= bid.amount);

/** Runs `check` against an audit over a fresh store holding the timeline's events. */
const withRecorded = async (
  timeline: readonly AuctionCommand[],
  check: (audit: AuctionAudit, events: readonly AuctionEvent[]) => Promise<void>,
): Promise<void> => {
  const events = new SqliteEventStore({ filename: ':memory:' });
  const read = new SqliteReadStore({ filename: ':memory:' });
  const users = new ReadStoreUserDirectory(read);
  await users.init();
  try {
    const decided = await recordCommands(events, AUCTION, timeline);
    await check(new AuctionAudit({ events, read, users }), decided);
  } finally {
    await read.close();
    await events.close();
  }
};

describe('state at a point of the log', () => {
  it('state at revision N is the fold of the events through revision N', async () => {
    await fc.assert(
      fc.asyncProperty(timelineArbitrary({ auctionId: AUCTION }), (timeline) =>
        withRecorded(timeline, async (audit, events) => {
          for (let n = 0; n < events.length; n++) {
            const state = await audit.state(AUCTION, { revision: n });
            const where = `revision ${n} of ${events.length - 1}`;
            expect(actual(state), where).toEqual(expected(events.slice(0, n + 1)));
            expect(state.event?.revision, where).toBe(n);
            expect(state.lastRevision, where).toBe(events.length - 1);
            expect(highestFirst(state), where).toBe(true);
          }
        }),
      ),
      { numRuns, seed },
    );
  });

  it('state at a time T is the fold of the events whose business time is at or before T', async () => {
    await fc.assert(
      fc.asyncProperty(timelineArbitrary({ auctionId: AUCTION }), (timeline) =>
        withRecorded(timeline, async (audit, events) => {
          const times = new Set<string>();
          for (const { data } of events) {
            const ms = Date.parse(data.at);
            for (const t of [ms - 1, ms, ms + 1]) times.add(toIsoTime(t));
          }
          for (const at of times) {
            const state = await audit.state(AUCTION, { at });
            const folded = events.filter((event) => event.data.at <= at);
            expect(actual(state), `at ${at}`).toEqual(expected(folded));
            expect(state.at === null || state.at <= at, `at ${at}`).toBe(true);
          }
        }),
      ),
      { numRuns, seed },
    );
  });
});
