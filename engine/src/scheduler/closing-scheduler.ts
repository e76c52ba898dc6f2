import { AuctionEvent, isoToMs } from '@auction/contracts';
import type { RecordedEvent } from '../event-store/event-store';
import { DueScheduler, type DueSchedulerOptions } from './due-scheduler';

export type ClosingSchedulerOptions = DueSchedulerOptions;

const LIFECYCLE = ['AuctionCreated', 'AuctionEdited', 'AuctionCancelled', 'AuctionClosed'] as const;

/**
 * Closes every auction at its end time by sending CloseAuction through the command bus (closing is
 * idempotent, so a duplicate is harmless). It follows the store's lifecycle events only, and on
 * start closes every auction whose end passed while the process was down. In a cluster every node
 * follows every auction, and closes those it owns.
 */
export class ClosingScheduler extends DueScheduler {
  private readonly open = new Map<string, number>();

  constructor(options: ClosingSchedulerOptions) {
    super(options, LIFECYCLE);
  }

  /** Auctions the scheduler will close, with their end times (ms). */
  pending(): ReadonlyMap<string, number> {
    return this.open;
  }

  /** Closes every auction whose end time has come; resolves when those closes are settled. */
  closeDue(): Promise<void> {
    return this.sendDue();
  }

  protected follow(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      const parsed = AuctionEvent.safeParse({ type: recorded.type, data: recorded.data });
      if (!parsed.success) continue;
      const event = parsed.data;
      switch (event.type) {
        case 'AuctionCreated':
          this.open.set(event.data.auctionId, Date.parse(event.data.endsAt));
          break;
        case 'AuctionEdited':
          if (event.data.endsAt !== undefined && this.open.has(event.data.auctionId)) {
            this.open.set(event.data.auctionId, Date.parse(event.data.endsAt));
          }
          break;
        case 'AuctionCancelled':
        case 'AuctionClosed':
          this.open.delete(event.data.auctionId);
          break;
        case 'BidPlaced':
        case 'BidEdited':
        case 'BidMaximumRaised':
        case 'AutomaticBidPlaced':
        case 'BidRetracted':
        case 'AuctionEndingSoon':
          break;
        default: {
          const unexpected: never = event;
          throw new Error(`Unknown event ${(unexpected as { type: string }).type}`);
        }
      }
    }
  }

  protected async send(auctionId: string): Promise<void> {
    try {
      const outcome = await this.options.bus.send({
        type: 'CloseAuction',
        data: { auctionId },
        metadata: this.systemMetadata(),
      });
      if (outcome.ok) {
        if (outcome.status !== 'Live') this.open.delete(auctionId);
      } else if (outcome.rejection.code === 'AUCTION_NOT_FOUND') {
        this.open.delete(auctionId);
      } else if (outcome.rejection.code === 'AUCTION_NOT_ENDED') {
        // A bid in its soft-close window moved the end (bids are not followed here): wait for it.
        // Without the end (a sender that dropped the details), ask again a little later.
        const endsAt = outcome.rejection.details?.endsAt;
        if (this.open.has(auctionId))
          this.open.set(
            auctionId,
            typeof endsAt === 'string' ? isoToMs(endsAt) : this.clock.now() + this.retryMs,
          );
      }
    } catch (error) {
      this.options.onError?.(error, auctionId);
      if (this.open.has(auctionId)) this.open.set(auctionId, this.clock.now() + this.retryMs);
    }
  }
}
