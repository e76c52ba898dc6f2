import { AuctionEvent, isoToMs, rules } from '@auction/contracts';
import type { RecordedEvent } from '../event-store/event-store';
import { DueScheduler, type DueSchedulerOptions } from './due-scheduler';

export interface EndingSoonSchedulerOptions extends DueSchedulerOptions {
  /** How long before the end watchers hear of it; `rules.endingSoonLeadMs` by default. */
  readonly leadMs?: number;
}

const FOLLOWED = [
  'AuctionCreated',
  'AuctionEdited',
  'AuctionCancelled',
  'AuctionClosed',
  'AuctionEndingSoon',
] as const;

interface Due {
  /** When to announce (ms): the end minus the lead. */
  readonly at: number;
  /** The end it is for (ms): past it, nothing is sent (closing comes next). */
  readonly endsAt: number;
}

/**
 * Sends `AnnounceEndingSoon` at each Live auction's end minus the lead; the decider writes at most
 * one announcement per closing stretch, so a repeat, a restart or a second node is harmless. It
 * follows lifecycle events only: an end a soft close moved comes back as a refusal with that end.
 * See docs/watchlist.md.
 */
export class EndingSoonScheduler extends DueScheduler {
  private readonly due = new Map<string, Due>();
  private readonly open = new Set<string>();
  private readonly leadMs: number;

  constructor(options: EndingSoonSchedulerOptions) {
    super(options, FOLLOWED);
    this.leadMs = options.leadMs ?? rules.endingSoonLeadMs;
  }

  /** Auctions still to announce, with when (ms). */
  pending(): ReadonlyMap<string, number> {
    return new Map([...this.due].map(([id, due]) => [id, due.at]));
  }

  /** Announces every auction whose time has come; resolves when those commands are settled. */
  announceDue(): Promise<void> {
    return this.sendDue();
  }

  /** Past its end, an auction is not announced any more (closing comes next). */
  protected override forget(now: number): void {
    for (const [id, due] of this.due) if (due.endsAt <= now) this.due.delete(id);
  }

  private setEnd(auctionId: string, endsAt: string): void {
    const end = isoToMs(endsAt);
    this.due.set(auctionId, { at: end - this.leadMs, endsAt: end });
  }

  protected follow(events: readonly RecordedEvent[]): void {
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
  }

  protected async send(auctionId: string): Promise<void> {
    let retry = false;
    try {
      const outcome = await this.options.bus.send({
        type: 'AnnounceEndingSoon',
        data: { auctionId },
        metadata: this.systemMetadata(),
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
    }
    const due = this.due.get(auctionId);
    if (retry && due) this.due.set(auctionId, { ...due, at: this.clock.now() + this.retryMs });
  }
}
