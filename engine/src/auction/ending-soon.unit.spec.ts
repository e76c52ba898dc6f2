import { type AuctionCommand, type AuctionEvent, rules } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import { decide } from './decide';
import type { AuctionState, Decision } from './decider-types';
import { evolve } from './evolve';
import { initialState } from './state';

const AUCTION = 'a1';
const T0 = Date.UTC(2030, 0, 1);
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const LEAD_MINUTES = rules.endingSoonLeadMs / 60_000;
const END = at(60);

let sequence = 0;
const meta = (actorId: string, time: string) => {
  sequence += 1;
  return { commandId: `c${sequence}`, actorId, correlationId: `k${sequence}`, at: time };
};

const create = (softClose = true): AuctionCommand => ({
  type: 'CreateAuction',
  data: {
    auctionId: AUCTION,
    title: 'Brass lamp',
    description: 'A 1920s brass desk lamp',
    categoryId: 'lighting',
    startingPrice: 10_000,
    endsAt: END,
    image: null,
    softClose: softClose ? rules.softClose : null,
  },
  metadata: meta('seller', at(0)),
});
const announce = (time: string): AuctionCommand => ({
  type: 'AnnounceEndingSoon',
  data: { auctionId: AUCTION },
  metadata: meta('system', time),
});
const place = (bidId: string, amount: number, time: string): AuctionCommand => ({
  type: 'PlaceBid',
  data: { auctionId: AUCTION, bidId, amount },
  metadata: meta('bidder', time),
});
const editEnd = (endsAt: string, time: string): AuctionCommand => ({
  type: 'EditAuction',
  data: { auctionId: AUCTION, endsAt },
  metadata: meta('seller', time),
});
const cancel = (time: string): AuctionCommand => ({
  type: 'CancelAuction',
  data: { auctionId: AUCTION, reason: 'seller' },
  metadata: meta('seller', time),
});

/** Decides each command in turn, folding what it accepts; the last decision and the state. */
const run = (commands: readonly AuctionCommand[]): { state: AuctionState; last: Decision } => {
  let state = initialState;
  let last: Decision = { ok: true, events: [] };
  for (const command of commands) {
    last = decide(command, state);
    if (last.ok) for (const event of last.events) state = evolve(state, event);
  }
  return { state, last };
};
const eventsOf = (decision: Decision): readonly AuctionEvent[] =>
  decision.ok ? decision.events : [];

describe('AnnounceEndingSoon', () => {
  it(`is announced ${LEAD_MINUTES} minutes before the end, with the end it is for`, () => {
    const { last, state } = run([create(), announce(at(60 - LEAD_MINUTES))]);
    expect(last).toEqual({
      ok: true,
      events: [
        {
          type: 'AuctionEndingSoon',
          data: { at: at(60 - LEAD_MINUTES), auctionId: AUCTION, endsAt: END },
        },
      ],
    });
    expect(state.endingSoonFor).toBe(END);
  });

  it('is refused before its time, with the end the auction has (the scheduler waits for it)', () => {
    const { last } = run([create(), announce(at(60 - LEAD_MINUTES - 1))]);
    expect(last).toEqual({
      ok: false,
      rejection: expect.objectContaining({ code: 'AUCTION_NOT_ENDED', details: { endsAt: END } }),
    });
  });

  it('is announced once: a repeat is a no-op', () => {
    const { last } = run([create(), announce(at(50)), announce(at(51))]);
    expect(last).toEqual({ ok: true, events: [] });
  });

  it('is not announced again when a soft close moves the end a little', () => {
    const { last, state } = run([
      create(),
      announce(at(50)),
      place('b1', 10_000, at(59)),
      announce(at(60)),
    ]);
    expect(state.endsAt).toBe(at(61));
    expect(last).toEqual({ ok: true, events: [] });
  });

  it('is announced again for an end the seller moved past the lead', () => {
    const { last } = run([create(), announce(at(50)), editEnd(at(120), at(52)), announce(at(106))]);
    expect(eventsOf(last)).toEqual([
      {
        type: 'AuctionEndingSoon',
        data: { at: at(106), auctionId: AUCTION, endsAt: at(120) },
      },
    ]);
  });

  it('is a no-op once the auction ended, was cancelled or is closed, and unknown auctions 404', () => {
    expect(run([create(), announce(at(60))]).last).toEqual({ ok: true, events: [] });
    expect(run([create(), cancel(at(10)), announce(at(50))]).last).toEqual({
      ok: true,
      events: [],
    });
    expect(run([announce(at(50))]).last).toMatchObject({
      ok: false,
      rejection: { code: 'AUCTION_NOT_FOUND' },
    });
  });

  it('keeps business time going forward and leaves bids and the end alone', () => {
    const { state } = run([create(), place('b1', 10_000, at(40)), announce(at(50))]);
    expect(state.lastAt).toBe(at(50));
    expect(state.endsAt).toBe(END);
    expect(state.currentBid).toBe(10_000);
    expect(state.status).toBe('Live');
  });
});
