import { randomUUID } from 'node:crypto';
import { type CommandMetadata, SYSTEM_ACTOR, toIsoTime } from '@auction/contracts';
import { type Clock, systemClock } from '../clock';
import type { CommandBus } from '../command-bus/command-bus';
import type { CommandRouter } from '../command-bus/command-router';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';

export interface DueSchedulerOptions {
  readonly store: EventStore;
  readonly bus: CommandBus;
  /**
   * Which auctions are this node's (in a cluster, those on the partitions it owns); all by
   * default. When what it owns changes, the auctions it took over that are due go at once.
   */
  readonly ownership?: Pick<CommandRouter, 'owns' | 'onOwnershipChange'>;
  readonly clock?: Clock;
  /** Wait before retrying a command that failed for lack of the store. */
  readonly retryMs?: number;
  readonly onError?: (error: unknown, auctionId: string) => void;
}

/** setTimeout's longest delay; later deadlines are reached in hops. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * What the auctions' time triggers share (closing, "about to end"): they follow some event types
 * of the log from its start, keep one timer for the earliest auction due that this node owns,
 * send each due auction's system command one at a time, and on stop wait for those in flight.
 * The decider makes a repeat harmless, so a restart or a second node may send again.
 */
export abstract class DueScheduler {
  protected readonly clock: Clock;
  protected readonly retryMs: number;
  /** Auctions whose command is on its way. */
  private readonly sending = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private subscription: Subscription | undefined;
  private stopListening: (() => void) | undefined;
  private timer: unknown;
  private timerAt = Infinity;
  private stopped = false;

  constructor(
    protected readonly options: DueSchedulerOptions,
    private readonly eventTypes: readonly string[],
  ) {
    this.clock = options.clock ?? systemClock;
    this.retryMs = options.retryMs ?? 1000;
  }

  /** Resolves once history is read and what was due has been sent (or tried). */
  async start(): Promise<void> {
    this.subscription = this.options.store.subscribe({
      eventTypes: this.eventTypes,
      onEvents: (events) => {
        this.follow(events);
        this.arm();
      },
      onError: (error) => this.options.onError?.(error, '*'),
    });
    await this.subscription.caughtUp;
    this.stopListening = this.options.ownership?.onOwnershipChange(() => void this.sendDue());
    await this.sendDue();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.clock.clearTimeout(this.timer);
    await this.subscription?.close();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Auctions still to send for, with when (ms). */
  abstract pending(): ReadonlyMap<string, number>;

  /** Sends for every auction whose time has come; resolves when those commands are settled. */
  protected async sendDue(): Promise<void> {
    const now = this.clock.now();
    this.forget(now);
    const ready = [...this.pending()]
      .filter(([id, at]) => at <= now && !this.sending.has(id) && this.owns(id))
      .map(([id]) => id);
    await Promise.allSettled(ready.map((id) => this.track(this.dispatch(id))));
    this.arm();
  }

  /** Takes in the followed events. */
  protected abstract follow(events: readonly RecordedEvent[]): void;
  /** Drops what is past sending for at `now` (nothing by default). */
  protected forget(_now: number): void {}
  /** Sends the auction's command and learns from the outcome; a failure is its own to handle. */
  protected abstract send(auctionId: string): Promise<void>;

  /** Metadata of a system command sent now. */
  protected systemMetadata(): CommandMetadata {
    return {
      commandId: randomUUID(),
      correlationId: randomUUID(),
      actorId: SYSTEM_ACTOR,
      at: toIsoTime(this.clock.now()),
    };
  }

  private async dispatch(auctionId: string): Promise<void> {
    this.sending.add(auctionId);
    try {
      await this.send(auctionId);
    } finally {
      this.sending.delete(auctionId);
    }
  }

  private arm(): void {
    if (this.stopped) return;
    let earliest = Infinity;
    for (const [id, at] of this.pending())
      if (at < earliest && !this.sending.has(id) && this.owns(id)) earliest = at;
    if (earliest === this.timerAt) return;
    this.clock.clearTimeout(this.timer);
    this.timerAt = earliest;
    if (earliest === Infinity) return;
    const delay = Math.min(Math.max(0, earliest - this.clock.now()), MAX_DELAY_MS);
    this.timer = this.clock.setTimeout(() => {
      this.timerAt = Infinity;
      void this.sendDue();
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
