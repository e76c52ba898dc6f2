import { useRef } from 'react';
import { BellPanel } from './bell-panel';
import { unreadCount, useNotifications } from './store';
import { useBellFeed, useDismiss } from './use-bell';

/** The header bell: unread badge, and a panel to mark all read or clear all (spec §2, §4). */
export const NotificationBell = () => {
  const { items, open, toggle, close, fetch } = useNotifications();
  const root = useRef<HTMLDivElement>(null);
  useBellFeed(fetch);
  useDismiss(open, close, root);
  const unread = unreadCount(items);

  return (
    <div className="bell" ref={root}>
      <button
        type="button"
        className="bell-button"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls="notification-panel"
        onClick={toggle}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
          />
        </svg>
        {unread > 0 && (
          <span className="bell-badge" data-testid="unread-count">
            {unread}
          </span>
        )}
      </button>
      {open && <BellPanel />}
    </div>
  );
};
