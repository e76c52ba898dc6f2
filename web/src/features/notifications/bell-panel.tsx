import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../lib/format';
import { useNotifications } from './store';

/** The open bell's panel: Mark all as read, Clear all, and the list, older pages as it scrolls. */
export const BellPanel = () => {
  const { items, markAllRead, clearAll, nextCursor, loadingMore, loadMore, failed, fetch } =
    useNotifications();
  const list = useRef<HTMLUListElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);

  // Older notifications load as the list is scrolled to its end.
  useEffect(() => {
    const end = sentinel.current;
    if (!end || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { root: list.current, rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [nextCursor, loadMore]);

  return (
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
      {items.length === 0 && failed ? (
        <div className="bell-empty" role="alert">
          <p>Notifications could not be loaded.</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void fetch()}>
            Retry
          </button>
        </div>
      ) : items.length === 0 ? (
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
  );
};
