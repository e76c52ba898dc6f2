import { AuctionEvent, CategoryCreated } from '@auction/contracts';
import type { ProjectedEvent } from './projection';

/**
 * Each event is validated once, however many projections read it: a shared catch-up hands the
 * same event objects to every projection. Forgotten with the event.
 */
const auctionEvents = new WeakMap<ProjectedEvent, AuctionEvent | null>();

/** The auction event this is, validated, or undefined for any other event. */
export const asAuctionEvent = (event: ProjectedEvent): AuctionEvent | undefined => {
  if (!event.streamId.startsWith('auction-')) return undefined;
  const known = auctionEvents.get(event);
  if (known !== undefined) return known ?? undefined;
  const parsed = AuctionEvent.safeParse({ type: event.type, data: event.data });
  auctionEvents.set(event, parsed.success ? parsed.data : null);
  return parsed.success ? parsed.data : undefined;
};

export const asCategoryCreated = (event: ProjectedEvent): CategoryCreated | undefined => {
  if (event.type !== 'CategoryCreated') return undefined;
  const parsed = CategoryCreated.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data : undefined;
};
