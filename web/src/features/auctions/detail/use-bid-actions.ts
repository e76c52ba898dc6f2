import type { BidView } from '@auction/contracts';
import { useCallback, useMemo, useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { type BidChange, bidsApi } from '../../../lib/auctions-api';
import { formatMoney } from '../../../lib/format';
import { notify, withLoadingToast } from '../../../lib/toast';
import { useLiveAuction } from '../live-auction-store';

/** The one dialog the page may show at a time. */
export type Dialog =
  | { kind: 'place' }
  | { kind: 'edit'; bid: BidView }
  | { kind: 'maximum'; bidId: string; maxBid: number }
  | { kind: 'delete'; bid: BidView }
  | { kind: 'buyNow'; price: number };

/** Which dialog is open; `close` and the bid list's openers keep their identity across renders. */
export const useBidDialog = () => {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = useCallback(() => setDialog(null), []);
  const startEdit = useCallback((bid: BidView) => setDialog({ kind: 'edit', bid }), []);
  const startDelete = useCallback((bid: BidView) => setDialog({ kind: 'delete', bid }), []);
  return { dialog, open: setDialog, close, startEdit, startDelete };
};

export type BidActions = ReturnType<typeof useBidActions>;

/**
 * The viewer's bid commands, each with its toasts. A command the server took closes the dialog
 * (`close`) before the page refreshes; a refused one leaves it open to try again, except Buy It
 * Now, whose confirmation closes either way.
 */
export const useBidActions = (auctionId: string, close: () => void) => {
  const applyOwnBid = useLiveAuction((s) => s.applyOwnBid);
  const noteOwnMaximum = useLiveAuction((s) => s.noteOwnMaximum);
  const refresh = useLiveAuction((s) => s.refresh);

  const place = useCallback(
    async (amount: number, maximum?: number) => {
      const placed = await withLoadingToast(() => bidsApi.place(auctionId, amount, maximum), {
        success: 'Bid Placed',
        failure: (error) => messageOf(error, 'Cannot place Bid'),
      });
      if (!placed) return;
      close();
      // Placed, but another bidder's secret maximum answered it at once.
      if (!placed.leading)
        notify.error(
          `Another bidder's maximum is higher: you were outbid at once. The current bid is ${formatMoney(placed.currentBid)}.`,
        );
      // Shown from the answer itself; the socket's copy of the same revision is then dropped.
      await applyOwnBid(auctionId, placed);
      // What only this bidder may see of it (whether they may still delete it) comes with a refetch.
      await refresh();
    },
    [auctionId, applyOwnBid, close, refresh],
  );

  /** An edit of the amount or a raise of the maximum: the same call, in different words. */
  const change = useCallback(
    async (bidId: string, change: BidChange, words: { success: string; failure: string }) => {
      const updated = await withLoadingToast(() => bidsApi.edit(bidId, change), {
        success: words.success,
        failure: (error) => messageOf(error, words.failure),
      });
      if (!updated) return;
      close();
      noteOwnMaximum(auctionId, bidId, updated.maxBid);
      await refresh();
    },
    [auctionId, close, noteOwnMaximum, refresh],
  );

  const buyNow = useCallback(
    async (price: number) => {
      const bought = await withLoadingToast(() => bidsApi.buyNow(auctionId, price), {
        success: 'Purchased with Buy It Now!',
        failure: (error) => messageOf(error, 'Cannot buy this item'),
      });
      close();
      if (bought) await refresh();
    },
    [auctionId, close, refresh],
  );

  const remove = useCallback(
    async (bidId: string) => {
      const removed = await withLoadingToast(() => bidsApi.remove(bidId), {
        success: 'Bid Deleted Successfully',
        failure: (error) => messageOf(error, 'Cannot delete bid'),
      });
      if (!removed) return;
      close();
      await refresh();
    },
    [close, refresh],
  );

  return useMemo(() => ({ place, change, buyNow, remove }), [place, change, buyNow, remove]);
};
