import { randomUUID } from 'node:crypto';
import { AuctionEvent, SYSTEM_ACTOR, isoToMs, rules, toIsoTime } from '@auction/contracts';
import { type Clock, systemClock } from '../clock';
import type { CommandBus } from '../command-bus/command-bus';
import type { CommandRouter } from '../command-bus/command-router';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';

export interface EndingSoonSchedulerOptions {
  readonly store: EventStore;
  readonly bus: CommandBus;
  /** Which auctions are this node's (in a cluster, those on the partitions it owns); all by default. */
  readonly ownership?: Pick<CommandRouter, 'owns' | 'onOwnershipChange'>;
  readonly clock?: Clock;
  /** How long before the end watchers hear of it; `rules.endingSoonLeadMs` by default. */
  readonly leadMs?: number;
  /** Wait before retrying a command that failed for lack of the store. */
  readonly retryMs?: number;
  readonly onError?: (error: unknown, auctionId: string) => void;
}

const FOLLOWED = [
  'AuctionCreated',
  'AuctionEdited',
  'AuctionCancelled',
  'AuctionClosed',
  'AuctionEndingSoon',
] as const;
/** setTimeout's longest delay; later deadlines are reached in hops. */
const MAX_DELAY_MS = 2_147_483_647;

interface Due {
  /** When to announce (ms): the end minus the lead. */
  readonly at: number;
  /** The end it is for (ms): past it, nothing is sent (closing comes next). */
  readonly endsAt: number;
}

/**
 * The time trigger of the watchlist's "about to end" (issue 16): sends `AnnounceEndingSoon` through
 * the command bus at each Live auction's end minus the lead, and the decider writes
 * `AuctionEndingSoon` at most once per closing stretch (`auction/ending-soon.ts`), so a repeat, a
 * restart or a second node is harmless. It follows lifecycle events and the announcements (not
 * bids): an end a soft close moved comes back as a refusal with that end, and it waits for it. On
 * start it announces what came due while the process was down, unless the end has passed. An
 * auction created with less than the lead left is not announced (nobody could watch it before),
 * unless the seller moves its end.
 */
export class EndingSoonScheduler {
  private readonly due = new Map<string, Due>();
  private readonly open = new Set<string>();
  private readonly sending = new Set<string>();
  private readonly clock: Clock;
  private readonly leadMs: number;
  private readonly retryMs: number;
  private subscription: Subscription | undefined;
  private stopListening: (() => void) | undefined;
  private timer: unknown;
  private timerAt = Infinity;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: EndingSoonSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.leadMs = options.leadMs ?? rules.endingSoonLeadMs;
    this.retryMs = options.retryMs ?? 1000;
  }

  /** Resolves once history is read and what is due has been announced (or tried). */
  async start(): Promise<void> {
    this.subscription = this.options.store.subscribe({
      eventTypes: FOLLOWED,
      onEvents: (events) => this.apply(events),
      onError: (error) => this.options.onError?.(error, '*'),
    });
    await this.subscription.caughtUp;
    this.stopListening = this.options.ownership?.onOwnershipChange(() => void this.announceDue());
    await this.announceDue();
  }

  /** Auctions still to announce, with when (ms). */
  pending(): ReadonlyMap<string, number> {
    return new Map([...this.due].map(([id, due]) => [id, due.at]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.clock.clearTimeout(this.timer);
    await this.subscription?.close();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Announces every auction whose time has come; resolves when those commands are settled. */
  async announceDue(): Promise<void> {
    const now = this.clock.now();
    const ready: string[] = [];
    for (const [id, due] of this.due) {
      if (due.endsAt <= now) this.due.delete(id);
      else if (due.at <= now && !this.sending.has(id) && this.owns(id)) ready.push(id);
    }
    await Promise.allSettled(ready.map((id) => this.track(this.announce(id))));
    this.arm();
  }

  private setEnd(auctionId: string, endsAt: string): void {
    const end = isoToMs(endsAt);
    this.due.set(auctionId, { at: end - this.leadMs, endsAt: end });
  }

  private apply(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      const parsed = AuctionEvent.safeParse({ type: recorded.type, data: recorded.data });
      if (!parsed.success) continue;
      const { type, data } = parsed.data;
      if (type === 'AuctionCreated') {
        this.open.add(data.auctionId);
        // Created with less than the lead left: no "about to end" moment after it (no watchers yet).
        if (isoToMs(data.at) < isoToMs(data.endsAt) - this.leadMs)
          this.setEnd(data.auctionId, data.endsAt);
      } else if (type === 'AuctionEdited') {
        if (data.endsAt !== undefined && this.open.has(data.auctionId))
          this.setEnd(data.auctionId, data.endsAt);
      } else if (type === 'AuctionEndingSoon') {
        this.due.delete(data.auctionId);
      } else if (type === 'AuctionCancelled' || type === 'AuctionClosed') {
        this.open.delete(data.auctionId);
        this.due.delete(data.auctionId);
      }
    }
    this.arm();
  }

  private async announce(auctionId: string): Promise<void> {
    this.sending.add(auctionId);
    let retry = false;
    try {
      const outcome = await this.options.bus.send({
        type: 'AnnounceEndingSoon',
        data: { auctionId },
        metadata: {
          commandId: randomUUID(),
          correlationId: randomUUID(),
          actorId: SYSTEM_ACTOR,
          at: toIsoTime(this.clock.now()),
        },
      });
      const endsAt = outcome.ok ? undefined : outcome.rejection.details?.endsAt;
      // Too early: a soft close moved the end (bids are not followed here); wait for the new one.
      if (
        !outcome.ok &&
        outcome.rejection.code === 'AUCTION_NOT_ENDED' &&
        typeof endsAt === 'string'
      )
        this.setEnd(auctionId, endsAt);
      else if (!outcome.ok && outcome.rejection.code === 'UNAVAILABLE') retry = true;
      else this.due.delete(auctionId);
    } catch (error) {
      this.options.onError?.(error, auctionId);
      retry = true;
    } finally {
      this.sending.delete(auctionId);
    }
    const due = this.due.get(auctionId);
    if (retry && due) this.due.set(auctionId, { ...due, at: this.clock.now() + this.retryMs });
  }

  private arm(): void {
    if (this.stopped) return;
    let earliest = Infinity;
    for (const [id, due] of this.due)
      if (due.at < earliest && !this.sending.has(id) && this.owns(id)) earliest = due.at;
    if (earliest === this.timerAt) return;
    this.clock.clearTimeout(this.timer);
    this.timerAt = earliest;
    if (earliest === Infinity) return;
    const delay = Math.min(Math.max(0, earliest - this.clock.now()), MAX_DELAY_MS);
    this.timer = this.clock.setTimeout(() => {
      this.timerAt = Infinity;
      void this.announceDue();
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
