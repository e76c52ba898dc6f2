import { useEffect, useRef } from 'react';
import { onBidNotification } from '../../lib/socket';
import { notify } from '../../lib/toast';
import { formatDateTime } from '../../lib/format';
import { unreadCount, useNotifications } from './store';

/** The header bell: unread badge, and a panel to mark all read or clear all (spec §2, §4). */
export const NotificationBell = () => {
  const { items, open, toggle, close, fetch, markAllRead, clearAll } = useNotifications();
  const { nextCursor, loadingMore, loadMore } = useNotifications();
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);

  // Older notifications load as the list is scrolled to its end.
  useEffect(() => {
    const end = sentinel.current;
    if (!open || !end || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { root: list.current, rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [open, nextCursor, loadMore]);
  const unread = unreadCount(items);

  useEffect(() => {
    void fetch();
    return onBidNotification((notification) => {
      notify.info(notification.message);
      void fetch();
    });
  }, [fetch]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);

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
      {open && (
        <section id="notification-panel" className="bell-panel" aria-label="Notifications">
          <header className="bell-panel-header">
            <h2>Notifications</h2>
            <div className="bell-panel-actions">
              <button type="button" className="link-button" onClick={() => void markAllRead()}>
                Mark all as read
              </button>
              <button type="button" className="link-button danger" onClick={() => void clearAll()}>
                Clear all
              </button>
            </div>
          </header>
          {items.length === 0 ? (
            <p className="bell-empty">No notifications</p>
          ) : (
            <ul className="bell-list" ref={list}>
              {items.map((item) => (
                <li key={item._id} className={item.isRead ? 'read' : 'unread'}>
                  <p>{item.message}</p>
                  <time dateTime={item.timestamp}>{formatDateTime(item.timestamp)}</time>
                </li>
              ))}
              {nextCursor !== null && (
                <li ref={sentinel} className="bell-more">
                  <button
                    type="button"
                    className="link-button"
                    disabled={loadingMore}
                    onClick={() => void loadMore()}
                  >
                    {loadingMore ? 'Loading…' : 'Load older notifications'}
                  </button>
                </li>
              )}
            </ul>
          )}
        </section>
      )}
    </div>
  );
};
