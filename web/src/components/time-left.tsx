import type { AuctionView } from '@auction/contracts';
import { useSyncExternalStore } from 'react';
import { formatMoney, remainingUntil } from '../lib/format';
import './time-left.css';

/** Under this much time left, the time shows as urgent (red, and says "Ending soon" in words). */
export const URGENT_MS = 60 * 60 * 1000;

// One clock for every time left on the page: a grid of cards ticks once a second, not once a card.
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

/** The time now, re-read every second while any time left is shown. */
const useClock = (): number =>
  useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );

const pad = (value: number) => String(value).padStart(2, '0');

/** `2d 4h`, `3h 05m`, `12m 05s`, `45s`: the two largest units of what is left. */
export const timeLeftText = (endsAt: string, at: number): string => {
  const { days, hours, minutes, seconds } = remainingUntil(endsAt, at);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
};

/**
 * When a closed auction stopped taking bids: `closedAt` (a Buy It Now sale closes before the
 * planned end), else its end (an auction the catalog closed before it kept `closedAt`).
 */
export const closedAtOf = (auction: Pick<AuctionView, 'closedAt' | 'auctionEndTime'>): string =>
  auction.closedAt ?? auction.auctionEndTime;

/**
 * A live auction's time left, ticking, in red under an hour with the words "Ending soon" (never
 * colour alone); "Ending now" once the end has passed and the server has yet to close it.
 */
export const TimeLeft = ({ endsAt, className = '' }: { endsAt: string; className?: string }) => {
  const at = useClock();
  const { totalMs } = remainingUntil(endsAt, at);
  const urgent = totalMs < URGENT_MS;
  return (
    <span className={`time-left${urgent ? ' time-left-urgent' : ''} ${className}`.trim()}>
      {urgent ? <span className="time-left-flag">Ending soon: </span> : null}
      {totalMs === 0 ? 'Ending now' : `${timeLeftText(endsAt, at)} left`}
    </span>
  );
};

/** What a closed auction's card says instead of a time left: Sold for $X, Ended or Cancelled. */
export const closedOutcome = (
  auction: Pick<AuctionView, 'status' | 'finalPrice'>,
): string | null => {
  switch (auction.status) {
    case 'Sold':
      return auction.finalPrice === null ? 'Sold' : `Sold for ${formatMoney(auction.finalPrice)}`;
    case 'Expired':
      return 'Ended';
    case 'Cancelled':
      return 'Cancelled';
    case 'Live':
      return null;
  }
};
