import { type RefObject, useEffect } from 'react';
import { onBidNotification, onSocketReconnect } from '../../lib/socket';
import { notify, toldAlready } from '../../lib/toast';

/**
 * The notifications fetched on mount, again on each bid notification (which is also toasted,
 * unless it repeats a bid outcome this tab has just told: `toldAlready`), and again when the
 * socket comes back (notifications sent while it was lost were not heard).
 */
export const useBellFeed = (fetch: () => Promise<void>) => {
  useEffect(() => {
    void fetch();
    const stopHearing = onBidNotification((notification) => {
      if (!toldAlready(notification)) notify.info(notification.message);
      void fetch();
    });
    const stopRefetching = onSocketReconnect(() => void fetch());
    return () => {
      stopHearing();
      stopRefetching();
    };
  }, [fetch]);
};

/** While open, a press outside `root` or Escape closes the panel. */
export const useDismiss = (
  open: boolean,
  close: () => void,
  root: RefObject<HTMLElement | null>,
) => {
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
  }, [open, close, root]);
};
