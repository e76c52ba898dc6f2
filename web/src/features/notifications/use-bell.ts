import { type RefObject, useEffect } from 'react';
import { onBidNotification } from '../../lib/socket';
import { notify } from '../../lib/toast';

/** The notifications fetched on mount and again on each bid notification, which is also toasted. */
export const useBellFeed = (fetch: () => Promise<void>) => {
  useEffect(() => {
    void fetch();
    return onBidNotification((notification) => {
      notify.info(notification.message);
      void fetch();
    });
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
