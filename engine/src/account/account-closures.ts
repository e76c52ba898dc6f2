import {
  type AuctionCommand,
  AuctionCreated,
  BidPlaced,
  type Rejection,
  rejection,
  toIsoTime,
} from '@auction/contracts';
import { eventIdFor } from '../chain/seal';
import { type Clock, systemClock } from '../clock';
import type { CommandBus } from '../command-bus/command-bus';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';

/** Commands that only take something away: a closed account may still send them (its deletion does). */
const REMOVALS: ReadonlySet<AuctionCommand['type']> = new Set([
  'RetractBid',
  'CancelAuction',
  'CloseAuction',
]);

const REQUESTED = 'AccountDeletionRequested';
const DELETED = 'AccountDeleted';

export interface AccountClosuresOptions {
  readonly store: EventStore;
  readonly clock?: Clock;
  readonly onError?: (error: unknown) => void;
}

/**
 * The accounts whose deletion has begun: no command of theirs that adds a bid or opens or edits an
 * auction is decided any more (`refuse`, checked by `Engine.send` and again by each actor), only
 * their removals. A node that hears of a closure late undoes what it decided meanwhile (`start`),
 * by commands whose ids derive from the event's. See api/src/accounts/README.md.
 */
export class AccountClosures {
  private readonly closed = new Set<string>();
  private readonly deleted = new Set<string>();
  private readonly clock: Clock;
  private subscription: Subscription | undefined;
  private readonly reacting = new Set<Promise<void>>();
  private loadedTo: number | undefined;

  constructor(private readonly options: AccountClosuresOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Reads the closures already in the log (an indexed read of two rare event types). */
  async load(): Promise<void> {
    this.loadedTo = (await this.options.store.headPosition()) ?? 0;
    const events = await this.options.store.readAll({ eventTypes: [REQUESTED, DELETED] });
    for (const event of events) this.learn(event);
  }

  /**
   * Follows the log from where `load` stopped: closures made on other nodes, and the bids and
   * auctions of closed users decided after their closure, which it undoes through `bus`.
   */
  start(bus: Pick<CommandBus, 'send'>): void {
    if (this.loadedTo === undefined) throw new Error('AccountClosures.start before load');
    this.subscription = this.options.store.subscribe({
      afterPosition: this.loadedTo,
      eventTypes: [REQUESTED, DELETED, 'AuctionCreated', 'BidPlaced'],
      onEvents: (events) => {
        for (const event of events) {
          if (event.type === REQUESTED || event.type === DELETED) this.learn(event);
          else this.undoIfClosed(event, bus);
        }
      },
      onError: (error) => this.options.onError?.(error),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    await Promise.allSettled([...this.reacting]);
  }

  /** The refusal of `command` when its sender's account is closed and it is not a removal. */
  readonly refuse = (command: AuctionCommand): Rejection | undefined =>
    this.closed.size === 0 ||
    !this.closed.has(command.metadata.actorId) ||
    REMOVALS.has(command.type)
      ? undefined
      : rejection('ACCOUNT_DELETED');

  /** Closes the account in this process at once (its `AccountDeletionRequested` follows). */
  close(userId: string): void {
    this.closed.add(userId);
  }

  /** Undoes `close` when the deletion could not be recorded. */
  reopen(userId: string): void {
    this.closed.delete(userId);
  }

  isClosed(userId: string): boolean {
    return this.closed.has(userId);
  }

  /** Closed accounts whose deletion has not been recorded as done (`AccountDeleted`). */
  unfinished(): string[] {
    return [...this.closed].filter((userId) => !this.deleted.has(userId));
  }

  /** Resolves once the undo commands sent so far are settled (tests and shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.reacting]);
  }

  private learn(event: RecordedEvent): void {
    const userId = (event.data as { userId?: unknown }).userId;
    if (typeof userId !== 'string') return;
    this.closed.add(userId);
    if (event.type === DELETED) this.deleted.add(userId);
  }

  private undoIfClosed(event: RecordedEvent, bus: Pick<CommandBus, 'send'>): void {
    if (this.closed.size === 0) return;
    const parsed =
      event.type === 'BidPlaced'
        ? BidPlaced.safeParse({ type: event.type, data: event.data })
        : AuctionCreated.safeParse({ type: event.type, data: event.data });
    if (!parsed.success) return;
    const undo = undoCommand(parsed.data, event, toIsoTime(this.clock.now()));
    if (!this.closed.has(undo.metadata.actorId)) return;
    const sending = bus.send(undo).then(
      (outcome) => {
        if (!outcome.ok && outcome.rejection.code === 'UNAVAILABLE')
          this.options.onError?.(new Error(outcome.rejection.message));
      },
      (error: unknown) => this.options.onError?.(error),
    );
    this.reacting.add(sending);
    void sending.finally(() => this.reacting.delete(sending));
  }
}

/** The retraction of a placed bid or the cancellation of a created auction, sent as its author. */
const undoCommand = (
  created: AuctionCreated | BidPlaced,
  event: RecordedEvent,
  at: string,
): AuctionCommand => {
  const metadata = {
    // The same event yields the same command on every node: the actor carries it out once.
    commandId: eventIdFor(event.streamId, `undo-of-closed-account:${event.id}`, 0),
    correlationId: (event.metadata as { correlationId?: string }).correlationId ?? event.id,
    at,
  };
  return created.type === 'BidPlaced'
    ? {
        type: 'RetractBid',
        data: {
          auctionId: created.data.auctionId,
          bidId: created.data.bidId,
          reason: 'account-deleted',
        },
        metadata: { ...metadata, actorId: created.data.bidderId },
      }
    : {
        type: 'CancelAuction',
        data: { auctionId: created.data.auctionId, reason: 'account-deleted' },
        metadata: { ...metadata, actorId: created.data.sellerId },
      };
};
