import { AuctionEvent } from './auction-events';

/** An event as any store hands it out: its stream, its type and its untyped data. */
export interface StoredEvent {
  readonly streamId: string;
  readonly type: string;
  readonly data: unknown;
}

/**
 * Each stored event is validated once, however many readers look at it (the projections of a
 * shared catch-up, the realtime gateway): the answer is kept with the event object and forgotten
 * with it.
 */
const validated = new WeakMap<StoredEvent, AuctionEvent | null>();

/** The auction event this is, validated, or undefined for an event of another stream or type. */
export const asAuctionEvent = (event: StoredEvent): AuctionEvent | undefined => {
  if (!event.streamId.startsWith('auction-')) return undefined;
  const known = validated.get(event);
  if (known !== undefined) return known ?? undefined;
  const parsed = AuctionEvent.safeParse({ type: event.type, data: event.data });
  validated.set(event, parsed.success ? parsed.data : null);
  return parsed.success ? parsed.data : undefined;
};
