import type { BidView } from '@auction/contracts';
import { useCallback, useMemo, useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { type BidChange, bidsApi } from '../../../lib/auctions-api';
import { formatMoney } from '../../../lib/format';
import { tellingBidOutcome, withLoadingToast } from '../../../lib/toast';
import type { BidAnswer } from './bid-forms';
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

/** What the bidder is told when another bidder's maximum answered their bid at once. */
export const outbidAtOnce = (currentBid: number) =>
  `Bid placed, but another bidder's maximum is higher: you were outbid at once. The current bid is ${formatMoney(currentBid)}.`;

/**
 * The viewer's bid commands. Each outcome is one toast (the spec's 'Loading...' turned into the
 * outcome): placed, outbid at once, or refused. A command the server took and that leads closes
 * the dialog (`close`) before the page refreshes; a refused one, or a bid another's maximum beat
 * at once, leaves it open and answers what to show at the amount (`BidAnswer`). Buy It Now's
 * confirmation closes either way.
 */
export const useBidActions = (auctionId: string, close: () => void) => {
  const applyOwnBid = useLiveAuction((s) => s.applyOwnBid);
  const noteOwnMaximum = useLiveAuction((s) => s.noteOwnMaximum);
  const refresh = useLiveAuction((s) => s.refresh);

  const place = useCallback(
    async (amount: number, maximum?: number): Promise<BidAnswer | undefined> => {
      let refusal = '';
      const told = tellingBidOutcome(auctionId);
      const placed = await withLoadingToast(() => bidsApi.place(auctionId, amount, maximum), {
        // Placed, but another bidder's secret maximum answered it at once: that, not 'Bid Placed'.
        success: (result) =>
          result.leading
            ? 'Bid Placed'
            : { type: 'warning', message: outbidAtOnce(result.currentBid) },
        failure: (error) => (refusal = messageOf(error, 'Cannot place Bid')),
      });
      // The bell's notice of the same outcome ("you have been outbid") is not toasted again.
      told(placed !== undefined && !placed.leading);
      if (!placed) return { alert: refusal };
      if (placed.leading) close();
      // Shown from the answer itself; the socket's copy of the same revision is then dropped.
      await applyOwnBid(auctionId, placed);
      // What only this bidder may see of it (whether they may still delete it) comes with a refetch.
      await refresh();
      return placed.leading ? undefined : { alert: outbidAtOnce(placed.currentBid) };
    },
    [auctionId, applyOwnBid, close, refresh],
  );

  /** An edit of the amount or a raise of the maximum: the same call, in different words. */
  const change = useCallback(
    async (
      bidId: string,
      change: BidChange,
      words: { success: string; failure: string },
    ): Promise<BidAnswer | undefined> => {
      let refusal = '';
      const told = tellingBidOutcome(auctionId);
      const updated = await withLoadingToast(() => bidsApi.edit(bidId, change), {
        success: (result) =>
          result.leading || change.bidAmount === undefined
            ? words.success
            : { type: 'warning', message: outbidAtOnce(result.currentBid) },
        failure: (error) => (refusal = messageOf(error, words.failure)),
      });
      const beaten = updated !== undefined && !updated.leading && change.bidAmount !== undefined;
      told(beaten);
      if (!updated) return { alert: refusal };
      if (!beaten) close();
      noteOwnMaximum(auctionId, bidId, updated.maxBid);
      await refresh();
      return beaten ? { alert: outbidAtOnce(updated.currentBid) } : undefined;
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
