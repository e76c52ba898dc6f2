import { AuctionEvent, CategoryCreated } from '@auction/contracts';
import type { ProjectedEvent } from './projection';

/** The auction event this is, validated, or undefined for any other event. */
export const asAuctionEvent = (event: ProjectedEvent): AuctionEvent | undefined => {
  if (!event.streamId.startsWith('auction-')) return undefined;
  const parsed = AuctionEvent.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data : undefined;
};

export const asCategoryCreated = (event: ProjectedEvent): CategoryCreated | undefined => {
  if (event.type !== 'CategoryCreated') return undefined;
  const parsed = CategoryCreated.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data : undefined;
};
