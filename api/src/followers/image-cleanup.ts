import { auctionStream } from '@auction/contracts';
import type { EventLog, Subscription } from '@auction/engine';
import type { ImageStore } from '../stores/images/image-store';

/**
 * The images an auction's committed stream has referenced, and the one it references now (none
 * once it is cancelled). Every auction image is an upload named at random for that auction's own
 * `AuctionCreated` or `AuctionEdited`, so the stream is the only place that can reference it.
 */
export const auctionImages = async (
  events: EventLog,
  auctionId: string,
): Promise<{ readonly referenced: ReadonlySet<string>; readonly current: string | null }> => {
  const referenced = new Set<string>();
  let current: string | null = null;
  for (const event of await events.readStream(auctionStream(auctionId))) {
    if (event.type === 'AuctionCreated' || event.type === 'AuctionEdited') {
      const { image } = event.data as { image?: string | null };
      if (image === undefined) continue;
      if (image !== null) referenced.add(image);
      current = image;
    } else if (event.type === 'AuctionCancelled') {
      current = null;
    }
  }
  return { referenced, current };
};

/**
 * Removes the images an auction no longer references once the command that dropped them is
 * committed, and `uploaded`, a request's image its command did not keep (a retry answered with the
 * first outcome). An image the stream references now is never removed. A failed removal is logged,
 * never the request's failure: the image is only left behind.
 */
export const releaseAuctionImages = async (
  deps: {
    readonly events: EventLog;
    readonly images: ImageStore;
    readonly log: (message: string, error?: unknown) => void;
  },
  auctionId: string,
  uploaded: string | null = null,
): Promise<void> => {
  try {
    const { referenced, current } = await auctionImages(deps.events, auctionId);
    const dropped = new Set(referenced);
    if (uploaded !== null) dropped.add(uploaded);
    if (current !== null) dropped.delete(current);
    for (const url of dropped) await deps.images.remove(url);
  } catch (error) {
    deps.log(`Images of auction ${auctionId} not removed`, error);
  }
};

/**
 * Follows the log and releases the images of every cancelled auction, whatever cancelled it (an
 * account deletion has no route to do it). Every node does it; removing twice is harmless. A
 * cancellation committed while no node follows leaves its image behind.
 */
export const releaseCancelledAuctionImages = (
  deps: Parameters<typeof releaseAuctionImages>[0],
  afterPosition: number,
): { close(): Promise<void> } => {
  let subscription: Subscription | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const follow = (from: number) => {
    const current: Subscription = deps.events.subscribe({
      afterPosition: from,
      eventTypes: ['AuctionCancelled'],
      onEvents: async (events) => {
        const auctions = new Set(
          events.map((event) => (event.data as { auctionId: string }).auctionId),
        );
        for (const auctionId of auctions) await releaseAuctionImages(deps, auctionId);
      },
      onError: (error) => {
        if (closed) return;
        deps.log('Following cancellations to remove their images failed; retrying', error);
        retry = setTimeout(() => {
          if (!closed) follow(current.position() ?? from);
        }, 1000);
        retry.unref();
      },
    });
    subscription = current;
  };
  follow(afterPosition);
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await subscription?.close();
    },
  };
};
