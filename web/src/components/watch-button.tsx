import { useEffect, useState } from 'react';
import { messageOf } from '../lib/api-client';
import { notify } from '../lib/toast';
import { useProfile } from '../lib/profile-store';
import { useSession } from '../lib/session/store';
import { watchlistApi } from '../lib/watchlist-api';
import './watchlist.css';

interface WatchButtonProps {
  readonly auctionId: string;
  readonly title: string;
  /** Whether the user watches it, as the server said (absent: unknown, taken as not watching). */
  readonly watching: boolean | undefined;
  /** After a change the server confirmed. */
  readonly onChange?: (watching: boolean) => void;
  readonly className?: string;
}

/**
 * The watch star (watchlist): for a signed-in user only. A click watches or unwatches the auction
 * on the server; the star follows the answer, and a refusal shows the server's message.
 */
export const WatchButton = ({
  auctionId,
  title,
  watching,
  onChange,
  className,
}: WatchButtonProps) => {
  const user = useSession((s) => s.user);
  const [on, setOn] = useState(watching ?? false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (watching !== undefined) setOn(watching);
  }, [watching]);
  if (!user) return null;

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    const next = !on;
    try {
      const state = await (next ? watchlistApi.watch(auctionId) : watchlistApi.unwatch(auctionId));
      setOn(state.watching);
      notify.success(state.watching ? 'Added to your watchlist' : 'Removed from your watchlist');
      onChange?.(state.watching);
      // The profile's Watch List count follows.
      void useProfile.getState().load();
    } catch (error) {
      console.error(error);
      notify.error(
        messageOf(error, next ? 'Cannot watch this auction' : 'Cannot unwatch this auction'),
      );
    } finally {
      setBusy(false);
    }
  };

  const label = on ? `Unwatch ${title}` : `Watch ${title}`;
  return (
    <button
      type="button"
      className={`watch-star${on ? ' watching' : ''}${className ? ` ${className}` : ''}`}
      aria-pressed={on}
      aria-label={label}
      title={on ? 'On your watchlist: click to stop watching' : 'Add to your watchlist'}
      disabled={busy}
      onClick={() => void toggle()}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path d="M12 2.5l2.94 5.96 6.56.95-4.75 4.63 1.12 6.54L12 17.5l-5.87 3.08 1.12-6.54L2.5 9.41l6.56-.95z" />
      </svg>
    </button>
  );
};
