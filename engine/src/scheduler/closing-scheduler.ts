import { randomUUID } from 'node:crypto';
import { AuctionEvent, SYSTEM_ACTOR, isoToMs, toIsoTime } from '@auction/contracts';
import { type Clock, systemClock } from '../clock';
import type { CommandBus } from '../command-bus/command-bus';
import type { CommandRouter } from '../command-bus/command-router';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';

export interface ClosingSchedulerOptions {
  readonly store: EventStore;
  readonly bus: CommandBus;
  /**
   * Which auctions are this node's to close (in a cluster, those on the partitions it owns); all
   * by default. When what it owns changes, the auctions it took over that are overdue close at once.
   */
  readonly ownership?: Pick<CommandRouter, 'owns' | 'onOwnershipChange'>;
  readonly clock?: Clock;
  /** Wait before retrying a close that failed for lack of the store. */
  readonly retryMs?: number;
  readonly onError?: (error: unknown, auctionId: string) => void;
}

const LIFECYCLE = ['AuctionCreated', 'AuctionEdited', 'AuctionCancelled', 'AuctionClosed'] as const;
/** setTimeout's longest delay; later deadlines are reached in hops. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * Closes every auction at its end time by sending CloseAuction through the command bus (closing is
 * idempotent, so a duplicate is harmless). It follows the store's lifecycle events only, and on
 * start closes every auction whose end passed while the process was down. In a cluster every node
 * follows every auction, and closes those it owns.
 */
export class ClosingScheduler {
  private readonly open = new Map<string, number>();
  private readonly closing = new Set<string>();
  private readonly clock: Clock;
  private readonly retryMs: number;
  private subscription: Subscription | undefined;
  private stopListening: (() => void) | undefined;
  private timer: unknown;
  private timerAt = Infinity;
  private stopped = false;
  private inFlight = new Set<Promise<void>>();

  constructor(private readonly options: ClosingSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.retryMs = options.retryMs ?? 1000;
  }

  /** Resolves once history is read and every overdue auction has been closed (or tried). */
  async start(): Promise<void> {
    this.subscription = this.options.store.subscribe({
      eventTypes: LIFECYCLE,
      onEvents: (events) => this.apply(events),
      onError: (error) => this.options.onError?.(error, '*'),
    });
    await this.subscription.caughtUp;
    this.stopListening = this.options.ownership?.onOwnershipChange(() => void this.closeDue());
    await this.closeDue();
  }

  /** Auctions the scheduler will close, with their end times (ms). */
  pending(): ReadonlyMap<string, number> {
    return this.open;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.clock.clearTimeout(this.timer);
    await this.subscription?.close();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Closes every auction whose end time has come; resolves when those closes are settled. */
  async closeDue(): Promise<void> {
    const now = this.clock.now();
    const due = [...this.open].filter(
      ([id, endsAt]) => endsAt <= now && !this.closing.has(id) && this.owns(id),
    );
    await Promise.allSettled(due.map(([id]) => this.track(this.close(id))));
    this.arm();
  }

  private apply(events: readonly RecordedEvent[]): void {
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
    this.arm();
  }

  private async close(auctionId: string): Promise<void> {
    this.closing.add(auctionId);
    let retryAfter: number | undefined;
    try {
      const outcome = await this.options.bus.send({
        type: 'CloseAuction',
        data: { auctionId },
        metadata: {
          commandId: randomUUID(),
          correlationId: randomUUID(),
          actorId: SYSTEM_ACTOR,
          at: toIsoTime(this.clock.now()),
        },
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
      retryAfter = this.clock.now() + this.retryMs;
    } finally {
      this.closing.delete(auctionId);
    }
    if (retryAfter !== undefined && this.open.has(auctionId)) this.open.set(auctionId, retryAfter);
  }

  private arm(): void {
    if (this.stopped) return;
    let earliest = Infinity;
    for (const [id, endsAt] of this.open)
      if (endsAt < earliest && !this.closing.has(id) && this.owns(id)) earliest = endsAt;
    if (earliest === this.timerAt) return;
    this.clock.clearTimeout(this.timer);
    this.timerAt = earliest;
    if (earliest === Infinity) return;
    const delay = Math.min(Math.max(0, earliest - this.clock.now()), MAX_DELAY_MS);
    this.timer = this.clock.setTimeout(() => {
      this.timerAt = Infinity;
      void this.closeDue();
    }, delay);
  }

  private owns(auctionId: string): boolean {
    return this.options.ownership?.owns(auctionId) ?? true;
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }
}
