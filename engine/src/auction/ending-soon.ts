import {
  type AnnounceEndingSoon,
  type AuctionEndingSoon,
  isoToMs,
  rejection,
  rules,
} from '@auction/contracts';
import type { AuctionState, Decision } from './decider-types';

/**
 * `AnnounceEndingSoon` becomes `AuctionEndingSoon` at most once per closing stretch: a soft close
 * that moves the end a little is the same stretch, a seller's edit that moves it further is
 * announced again. Too early is refused with the end it has (`details.endsAt`), so the scheduler
 * waits for it. See docs/watchlist.md.
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
