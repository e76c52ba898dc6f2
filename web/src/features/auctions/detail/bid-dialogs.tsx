import type { AuctionView, BidView } from '@auction/contracts';
import { memo, useCallback, useMemo, useState } from 'react';
import { Confirm } from '../../../components/modal';
import { formatMoney } from '../../../lib/format';
import { BidAmountDialog, currentBidLine, highestBidLine, nextBidOf } from './bid-forms';
import type { BidActions, Dialog } from './use-bid-actions';

// The page re-renders every second for its countdown; stable props keep an open dialog still.
const StableConfirm = memo(Confirm);

interface BidDialogsProps {
  auction: AuctionView;
  dialog: Dialog | null;
  topBidId: string | null;
  actions: BidActions;
  close: () => void;
}

/** The open dialog, if any: place, edit, raise the maximum, delete, or Buy It Now. */
export const BidDialogs = ({ auction, dialog, topBidId, actions, close }: BidDialogsProps) => {
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'place':
      return <PlaceBidDialog auction={auction} actions={actions} close={close} />;
    case 'maximum':
      return (
        <RaiseMaximumDialog
          auction={auction}
          bidId={dialog.bidId}
          maxBid={dialog.maxBid}
          actions={actions}
          close={close}
        />
      );
    case 'buyNow':
      return (
        <BuyNowConfirm auction={auction} price={dialog.price} actions={actions} close={close} />
      );
    case 'edit': {
      // The bid as it stands now, which a socket event may have changed since the dialog opened.
      const bid = auction.bids.find((b) => b._id === dialog.bid._id) ?? dialog.bid;
      const isTop = topBidId === bid._id;
      return (
        <EditBidDialog auction={auction} bid={bid} isTop={isTop} actions={actions} close={close} />
      );
    }
    case 'delete':
      return <DeleteBidConfirm bid={dialog.bid} actions={actions} close={close} />;
  }
};

interface DialogProps {
  auction: AuctionView;
  actions: BidActions;
  close: () => void;
}

/** The first bid needs the starting price; later ones the increment rule's next amount. */
const minimumOf = (auction: AuctionView) => {
  const { minimum, note } = nextBidOf(auction);
  return auction.bidCount > 0
    ? { placeMin: minimum, nextMin: minimum, note }
    : { placeMin: auction.startingPrice, nextMin: minimum, note: '' };
};

/** The amount prefilled with the minimum, with a one-increment button (one object per rule). */
const usePrefill = (auction: AuctionView) => {
  const { increments } = auction;
  return useMemo(() => ({ increments }), [increments]);
};

/** "Enter $X or more": the next acceptable bid, as the dialog and the page say it. */
export const enterOrMore = (auction: AuctionView) =>
  `Enter ${formatMoney(minimumOf(auction).placeMin)} or more`;

const PlaceBidDialog = ({ auction, actions, close }: DialogProps) => {
  const { placeMin, note } = minimumOf(auction);
  const prefill = usePrefill(auction);
  return (
    <BidAmountDialog
      title="Place Bid"
      summary={highestBidLine(auction.currentBid)}
      label="Bid Amount"
      initialAmount=""
      min={placeMin}
      prefill={prefill}
      hint={`${enterOrMore(auction)}.${note}`}
      submitLabel="Place Bid"
      busyLabel="Placing..."
      onSubmit={actions.place}
      onClose={close}
      maximum={NO_MAXIMUM_YET}
    />
  );
};

// One object for every render, so the memoised dialog does not re-render for it.
const NO_MAXIMUM_YET = { initial: '' } as const;

const RaiseMaximumDialog = ({
  auction,
  bidId,
  maxBid,
  actions,
  close,
}: DialogProps & { bidId: string; maxBid: number }) => {
  const { change } = actions;
  const raise = useCallback(
    (amount: number) =>
      change(
        bidId,
        { maxBidAmount: amount },
        { success: 'Maximum raised', failure: 'Cannot raise your maximum' },
      ),
    [bidId, change],
  );
  return (
    <BidAmountDialog
      title="Raise your maximum"
      summary={`Your maximum: ${formatMoney(maxBid)}. The current bid stays ${formatMoney(auction.currentBid)}.`}
      label="New maximum"
      initialAmount=""
      min={maxBid}
      hint={`Enter more than ${formatMoney(maxBid)}. Nobody else sees it.`}
      submitLabel="Raise maximum"
      busyLabel="Raising..."
      onSubmit={raise}
      onClose={close}
    />
  );
};

const EditBidDialog = ({
  auction,
  bid,
  isTop,
  actions,
  close,
}: DialogProps & { bid: BidView; isTop: boolean }) => {
  const { change } = actions;
  const { nextMin, note } = minimumOf(auction);
  const prefill = usePrefill(auction);
  const edit = useCallback(
    (amount: number, maximum?: number) =>
      change(
        bid._id,
        { bidAmount: amount, maxBidAmount: maximum },
        { success: 'Bid Updated Successfully', failure: 'Cannot update bid' },
      ),
    [bid._id, change],
  );
  return (
    <BidAmountDialog
      title="Edit Bid"
      summary={currentBidLine(bid.amount)}
      label="Edit Bid Amount"
      initialAmount={String(bid.amount)}
      min={isTop ? bid.amount : nextMin}
      prefill={isTop ? undefined : prefill}
      hint={
        isTop
          ? `Bids can only go up: enter more than ${formatMoney(bid.amount)}.`
          : `Enter ${formatMoney(nextMin)} or more.${note}`
      }
      submitLabel="Update Bid"
      busyLabel="Updating..."
      onSubmit={edit}
      onClose={close}
      maximum={NO_MAXIMUM_YET}
    />
  );
};

const BuyNowConfirm = ({ auction, price, actions, close }: DialogProps & { price: number }) => {
  const [busy, setBusy] = useState(false);
  const { buyNow } = actions;
  const answer = useCallback(
    (yes: boolean) => {
      if (!yes) return close();
      setBusy(true);
      void buyNow(price).then(() => setBusy(false));
    },
    [buyNow, close, price],
  );
  return (
    <StableConfirm
      title="Buy It Now"
      question={`Buy "${auction.title}" for ${formatMoney(price)}? The auction ends at once and you pay this price.`}
      onAnswer={answer}
      busy={busy}
    />
  );
};

const DeleteBidConfirm = ({
  bid,
  actions,
  close,
}: Omit<DialogProps, 'auction'> & { bid: BidView }) => {
  const [busy, setBusy] = useState(false);
  const { remove } = actions;
  const answer = useCallback(
    (yes: boolean) => {
      if (!yes) return close();
      setBusy(true);
      void remove(bid._id).then(() => setBusy(false));
    },
    [bid._id, close, remove],
  );
  return (
    <StableConfirm
      title="Delete Bid"
      question="Are you sure you want to delete this bid?"
      onAnswer={answer}
      busy={busy}
    />
  );
};
