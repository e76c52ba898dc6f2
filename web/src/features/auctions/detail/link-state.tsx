import type { AuctionView } from '@auction/contracts';
import { reconnectSocket } from '../../../lib/socket';
import { useSocketLink } from '../../../lib/use-socket-link';
import { useLiveAuction } from '../live-auction-store';

/**
 * Whether what the page shows of a live auction may be out of date: the socket is lost
 * (`reconnecting`), its tries are spent (`paused`), or it is back and the refetch of what was
 * missed has not landed yet (`resyncing`). `null` while the page is current.
 */
export type Staleness = 'reconnecting' | 'paused' | 'resyncing' | null;

export const useStaleness = (auction: AuctionView): Staleness => {
  const link = useSocketLink();
  const resyncing = useLiveAuction((s) => s.resyncing);
  if (auction.status !== 'Live') return null;
  if (link === 'reconnecting' || link === 'paused') return link;
  return resyncing ? 'resyncing' : null;
};

/** What the live badges say instead of "Live" while the page may be out of date. */
export const STALE_BADGE: Record<Exclude<Staleness, null>, string> = {
  reconnecting: 'Reconnecting…',
  paused: 'Updates paused',
  resyncing: 'Updating…',
};

const STALE_TEXT: Record<Exclude<Staleness, null>, string> = {
  reconnecting: 'Connection lost. Reconnecting… The price shown may be out of date.',
  paused: 'Live updates are paused. The price shown may be out of date.',
  resyncing: 'Reconnected. Fetching the latest bids…',
};

/**
 * Says, in a polite live region that is always in the page, that the price may be out of date
 * while the socket is down, with a Reconnect button (outside the region) once its tries are spent.
 */
export const LinkNotice = ({ staleness }: { staleness: Staleness }) => (
  <div className={staleness ? `link-notice link-notice-${staleness}` : 'link-notice-idle'}>
    <p role="status" className="link-notice-text">
      {staleness ? STALE_TEXT[staleness] : ''}
    </p>
    {staleness === 'paused' && (
      <button type="button" className="btn btn-ghost btn-sm" onClick={reconnectSocket}>
        Reconnect
      </button>
    )}
  </div>
);
