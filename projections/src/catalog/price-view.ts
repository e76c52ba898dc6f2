import {
  type AuctionView,
  type PriceFacts,
  buyNowOnOffer,
  centsToDollars,
  reserveStatus,
} from '@auction/contracts';

/** The public face of an auction's prices: the reserve's state (never its amount) and Buy It Now while on offer. */
export const priceView = (
  auction: PriceFacts & { readonly boughtNow: boolean },
): Pick<AuctionView, 'reserve' | 'buyNowPrice' | 'boughtNow' | 'leadingBidId'> => ({
  reserve: reserveStatus(auction),
  buyNowPrice:
    auction.buyNowPrice !== null && buyNowOnOffer(auction)
      ? centsToDollars(auction.buyNowPrice)
      : null,
  boughtNow: auction.boughtNow,
  leadingBidId: auction.leadingBidId,
});
