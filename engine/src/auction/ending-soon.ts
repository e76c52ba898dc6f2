import {
  type AnnounceEndingSoon,
  type AuctionEndingSoon,
  isoToMs,
  rejection,
  rules,
} from '@auction/contracts';
import type { AuctionState, Decision } from './decider-types';

/**
 * Watchers hear an auction is about to end (the watchlist, issue 16): the ending-soon scheduler
 * sends `AnnounceEndingSoon` at `endsAt - rules.endingSoonLeadMs`, and the decider turns it into
 * `AuctionEndingSoon` at most once per closing stretch. Once announced for an end E, a later end
 * whose lead starts at or before E (a soft close moving the end a little) is the same stretch and
 * is not announced again; an end moved further (the seller's edit) is announced again when its
 * time comes. A Live auction only, before its end; too early is refused with the end it has
 * (`details.endsAt`), so the scheduler waits for it, as for an early close.
 */
export const announceEndingSoon = (
  { data }: AnnounceEndingSoon,
  state: AuctionState,
  now: string,
): Decision => {
  const { endsAt } = state;
  if (state.status !== 'Live' || endsAt === null || now >= endsAt) return { ok: true, events: [] };
  const leadStartsMs = isoToMs(endsAt) - rules.endingSoonLeadMs;
  if (isoToMs(now) < leadStartsMs)
    return { ok: false, rejection: rejection('AUCTION_NOT_ENDED', { endsAt }) };
  if (state.endingSoonFor !== null && leadStartsMs <= isoToMs(state.endingSoonFor))
    return { ok: true, events: [] };
  return {
    ok: true,
    // Keys in sorted order, so the hash chain's canonical JSON is plain `JSON.stringify`.
    events: [{ type: 'AuctionEndingSoon', data: { at: now, auctionId: data.auctionId, endsAt } }],
  };
};

/** `evolve` of `AuctionEndingSoon`: remembers the end it was announced for. */
export const endingSoonAnnounced = ({ data }: AuctionEndingSoon): Partial<AuctionState> => ({
  endingSoonFor: data.endsAt,
});
