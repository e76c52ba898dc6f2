export {
  catalogProjection,
  catalogAuctions,
  catalogBids,
  catalogCategories,
  type CatalogAuction,
  type CatalogBid,
  type CatalogCategory,
  type CatalogStatus,
} from './catalog-projection';
export {
  auctionDetail,
  auctionBidsPage,
  auctionsByIds,
  liveAuctions,
  featuredAuctions,
  sellerAuctions,
  listCategories,
  liveAuctionsPage,
  liveAuctionsList,
  sellerAuctionsPage,
  categoriesPage,
  categoryById,
  type LiveAuctionFilters,
} from './catalog-queries';
export { priceView } from './price-view';
export { bidPageOrder, bidViewsPage, bidsPageOf, standingBidsPage } from './bid-pages';
export { type AuctionFacts, auctionView, usersOfAuction, viewerView } from './auction-view';
