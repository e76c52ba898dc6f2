import { describe, expect, it } from 'vitest';
import { type AuctionEvent, auctionStream } from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import type { RecordedEvent } from '../event-store/event-store';
import {
  type CommittedCommand,
  CommittedCommands,
  type LearnedCommand,
  committedCommand,
  covers,
  learnEvent,
  replayedOutcome,
} from './command-dedup';
import { evolve } from './evolve';
import { initialState } from './state';

const A = 'a1';
const stream = auctionStream(A);
const AT = '2030-01-01T12:00:00.000Z';
const created: AuctionEvent = {
  type: 'AuctionCreated',
  data: {
    auctionId: A,
    sellerId: 'seller',
    title: 'Watch',
    description: 'A watch',
    categoryId: 'c',
    startingPrice: 10_000,
    endsAt: '2030-01-02T12:00:00.000Z',
    image: null,
    at: AT,
  },
};
const bid = (bidId: string, amount: number): AuctionEvent => ({
  type: 'BidPlaced',
  data: { auctionId: A, bidId, bidderId: 'alice', amount, at: AT },
});

/** A stream written by `commands` (each a command id and its events), positions from 100 on. */
const streamOf = (commands: readonly (readonly [string, readonly AuctionEvent[]])[]) => {
  const recorded: RecordedEvent[] = [];
  let head = genesisHash(stream);
  for (const [commandId, events] of commands) {
    const sealed = sealEvents(stream, recorded.length - 1, head, events, {
      commandId,
      actorId: 'alice',
      correlationId: commandId,
    });
    head = sealed.headHash;
    for (const event of sealed.events) {
      const revision = recorded.length;
      recorded.push({
        ...event,
        streamId: stream,
        revision,
        position: 100 + revision,
        recordedAt: AT,
      });
    }
  }
  return recorded;
};

/** What `catchUp` does: fold and learn, event by event. */
const learnAll = (read: readonly RecordedEvent[]) => {
  const learned: LearnedCommand[] = [];
  let state = initialState;
  for (const recorded of read) {
    const event = { type: recorded.type, data: recorded.data } as AuctionEvent;
    state = evolve(state, event);
    learnEvent(learned, recorded.metadata as { commandId: string }, recorded, event, state);
  }
  return learned;
};

describe('learning committed commands from the stream', () => {
  const placed = (bidId: string, amount: number, entryRevision: number) => ({
    bidId,
    bidderId: 'alice',
    amount,
    maxAmount: amount,
    placedAt: AT,
    automatic: false,
    retracted: false,
    entryRevision,
    entryAmount: amount,
  });

  it('one record per command: its revision range, its last event position, the state and bid after it', () => {
    const read = streamOf([
      ['create', [created]],
      ['two-bids', [bid('b1', 10_000), bid('b2', 12_000)]],
      ['one-bid', [bid('b3', 13_000)]],
    ]);
    expect(learnAll(read)).toEqual([
      {
        commandId: 'create',
        record: {
          first: 0,
          last: 0,
          position: 100,
          currentBid: 0,
          leadingBidId: null,
          status: 'Live',
        },
      },
      {
        commandId: 'two-bids',
        record: {
          first: 1,
          last: 2,
          position: 102,
          currentBid: 12_000,
          leadingBidId: 'b2',
          status: 'Live',
          // A command's bid is the one its first event enters.
          bid: placed('b1', 10_000, 1),
        },
      },
      {
        commandId: 'one-bid',
        record: {
          first: 3,
          last: 3,
          position: 103,
          currentBid: 13_000,
          leadingBidId: 'b3',
          status: 'Live',
          bid: placed('b3', 13_000, 3),
        },
      },
    ]);
  });

  it("follows the command's bid through the automatic bid it called for, and the end it moved", () => {
    const endsAt = '2030-01-02T12:05:00.000Z';
    const raised = (bidId: string, amount: number): AuctionEvent => ({
      type: 'AutomaticBidPlaced',
      data: { auctionId: A, bidId, bidderId: 'alice', amount, previousAmount: 0, at: AT },
    });
    const read = streamOf([
      ['create', [created]],
      [
        'with-max',
        [
          {
            type: 'BidPlaced',
            data: {
              auctionId: A,
              bidId: 'b1',
              bidderId: 'alice',
              amount: 10_000,
              maxAmount: 20_000,
              at: AT,
              endsAt,
            },
          },
          raised('b1', 12_000),
        ],
      ],
      ['raise-other', [bid('b2', 13_000), raised('b1', 14_000)]],
    ]);
    const [, withMax, raiseOther] = learnAll(read);
    expect(withMax?.record.bid).toEqual({
      ...placed('b1', 12_000, 1),
      maxAmount: 20_000,
      automatic: true,
      entryAmount: 10_000,
      endsAt,
    });
    // Another bid's automatic answer leaves the command's own bid as its entry left it.
    expect(raiseOther?.record.bid).toEqual(placed('b2', 13_000, 3));
    expect(replayedOutcome(A, 'with-max', withMax?.record as CommittedCommand, read)).toMatchObject(
      { ok: true, bid: withMax?.record.bid },
    );
  });

  it('the first record of an id wins: what the actor answered, or the first run of a twice-written id', () => {
    const commands = new CommittedCommands();
    const answered = committedCommand(1, 1, 500, initialState, undefined, undefined);
    commands.remember('c1', answered);
    const read = streamOf([
      ['c1', [created]],
      ['c2', [bid('b1', 10_000)]],
      ['c2', [bid('b2', 11_000)]],
    ]);
    // Not contiguous with itself: 'c2' written twice by something that did not deduplicate.
    read[2] = { ...(read[2] as RecordedEvent), revision: 3, position: 103 };
    commands.learn(learnAll(read));
    expect(commands.size).toBe(2);
    expect(commands.get('c1')).toBe(answered);
    expect(commands.get('c2')).toMatchObject({ first: 1, last: 1, currentBid: 10_000 });
    expect(commands.get('c3')).toBeUndefined();
  });
});

describe('the original outcome of a committed command', () => {
  const read = streamOf([
    ['create', [created]],
    ['two-bids', [bid('b1', 10_000), bid('b2', 12_000)]],
    ['one-bid', [bid('b3', 13_000)]],
  ]);
  const record = learnAll(read)[1]?.record as CommittedCommand;

  it('takes its events, revisions, ids and metadata from the stored range', () => {
    const outcome = replayedOutcome(A, 'two-bids', record, read);
    expect(outcome).toEqual({
      ok: true,
      auctionId: A,
      events: read.slice(1, 3).map((e) => ({
        type: e.type,
        data: e.data,
        id: e.id,
        revision: e.revision,
        metadata: e.metadata,
      })),
      revision: 2,
      position: 102,
      currentBid: 12_000,
      leadingBidId: 'b2',
      status: 'Live',
      bid: record.bid,
    });
    expect(record.bid).toMatchObject({ bidId: 'b1', amount: 10_000, entryRevision: 1 });
    expect(replayedOutcome(A, 'two-bids', record, read.slice(1, 3))).toEqual(outcome);
  });

  it('refuses a range the stream does not hold for that command', () => {
    expect(() => replayedOutcome(A, 'one-bid', record, read)).toThrow(/not at revisions/);
    expect(() => replayedOutcome(A, 'two-bids', record, read.slice(0, 2))).toThrow(
      /not at revisions 1..2/,
    );
  });

  it('knows whether a read covers a record', () => {
    expect(covers(read, record)).toBe(true);
    expect(covers(read.slice(1, 3), record)).toBe(true);
    expect(covers(read.slice(2), record)).toBe(false);
    expect(covers(read.slice(0, 2), record)).toBe(false);
    expect(covers([], record)).toBe(false);
  });
});
