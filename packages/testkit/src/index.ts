export { createModel } from './reference-model';
export type {
  ModelBid,
  ModelOutcome,
  ModelStatus,
  ModelView,
  ReferenceModel,
} from './reference-model';
export {
  ARBITRARY_EPOCH,
  TIMELINE_BIDDERS,
  TIMELINE_SELLER,
  actorIdArbitrary,
  auctionCommandArbitrary,
  cancelAuctionCommandArbitrary,
  centsArbitrary,
  closeAuctionCommandArbitrary,
  commandMetadataArbitrary,
  createAuctionCommandArbitrary,
  editAuctionCommandArbitrary,
  editBidCommandArbitrary,
  idArbitrary,
  isoTimeArbitrary,
  placeBidCommandArbitrary,
  retractBidCommandArbitrary,
  startingPriceArbitrary,
  timelineArbitrary,
} from './arbitraries';
export type { CommandArbitraryOptions, TimelineOptions } from './arbitraries';
export { deciderSpec } from './given-when-then';
export type {
  Decider,
  DeciderDecision,
  DeciderGiven,
  DeciderRejection,
  DeciderSpec,
  DeciderThen,
} from './given-when-then';
