import {
  type AuctionCommand,
  AuctionEvent,
  DomainError,
  EventMetadata,
  type Rejection,
  auctionStream,
  rejection,
} from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import type { CommandOutcome, CommittedEvent } from '../command-bus/command-bus';
import {
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store';
import type { AuctionState } from './decider-types';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';

/** The actor's view of its stream: the folded state, the last revision and the chain's head. */
export interface Snapshot {
  readonly state: AuctionState;
  readonly revision: number;
  readonly headHash: string;
}

interface Pending {
  readonly command: AuctionCommand;
  readonly resolve: (outcome: CommandOutcome) => void;
  readonly reject: (error: unknown) => void;
  conflicts: number;
  /** Set when decided: a refusal, or the sealed events and the speculative snapshot after them. */
  rejection: Rejection | undefined;
  sealed: NewEvent[];
  committed: CommittedEvent[];
  after: Snapshot | undefined;
}

export interface ActorOptions {
  /** Upper bound of commands appended in one batch. */
  readonly maxBatch?: number;
  /** How often a command is re-decided after another writer moved the stream. */
  readonly maxConflictRetries?: number;
}

const unavailable = (cause: unknown): DomainError => {
  const error = new DomainError(rejection('UNAVAILABLE'));
  error.cause = cause;
  return error;
};

/** Reads the stream after `from` and folds it, validating every event read back. */
export const catchUp = async (
  store: EventStore,
  streamId: string,
  from: Snapshot,
): Promise<{ snapshot: Snapshot; read: RecordedEvent[] }> => {
  const read = await store.readStream(streamId, { fromRevision: from.revision + 1 });
  let { state, revision, headHash } = from;
  for (const recorded of read) {
    state = evolve(state, AuctionEvent.parse({ type: recorded.type, data: recorded.data }));
    revision = recorded.revision;
    headHash = EventMetadata.parse(recorded.metadata).hash;
  }
  return { snapshot: { state, revision, headHash }, read };
};

export const emptySnapshot = (streamId: string): Snapshot => ({
  state: initialState,
  revision: -1,
  headHash: genesisHash(streamId),
});

/**
 * One auction's single writer. Commands are decided in arrival order against the speculative
 * state (committed + everything decided since); while one batch is being appended, the next
 * accumulates, and goes out as one append when the first commits (group commit). Callers are
 * answered only once their batch is committed.
 */
export class AuctionActor {
  readonly streamId: string;
  /** Set when the actor could not re-read its stream after a failure: the registry replaces it. */
  broken = false;
  lastUsed = 0;
  private committed: Snapshot;
  private speculative: Snapshot;
  private next: Pending[] = [];
  private inFlight = false;
  private flushScheduled = false;
  private idleWaiters: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly maxConflictRetries: number;

  private constructor(
    private readonly store: EventStore,
    readonly auctionId: string,
    snapshot: Snapshot,
    options: ActorOptions,
  ) {
    this.streamId = auctionStream(auctionId);
    this.committed = snapshot;
    this.speculative = snapshot;
    this.maxBatch = options.maxBatch ?? 2000;
    this.maxConflictRetries = options.maxConflictRetries ?? 10;
  }

  static async load(
    store: EventStore,
    auctionId: string,
    options: ActorOptions = {},
  ): Promise<AuctionActor> {
    const streamId = auctionStream(auctionId);
    const { snapshot } = await catchUp(store, streamId, emptySnapshot(streamId));
    return new AuctionActor(store, auctionId, snapshot, options);
  }

  /** The committed snapshot (what the store holds as far as this actor knows). */
  get snapshot(): Snapshot {
    return this.committed;
  }

  get idle(): boolean {
    return !this.inFlight && !this.flushScheduled && this.next.length === 0;
  }

  send(command: AuctionCommand): Promise<CommandOutcome> {
    return new Promise<CommandOutcome>((resolve, reject) => {
      const pending: Pending = {
        command,
        resolve,
        reject,
        conflicts: 0,
        rejection: undefined,
        sealed: [],
        committed: [],
        after: undefined,
      };
      this.decideInto(pending);
      this.next.push(pending);
      this.scheduleFlush();
    });
  }

  /** Resolves when nothing is queued or in flight. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private decideInto(pending: Pending): void {
    const before = this.speculative;
    const decision = decide(pending.command, before.state);
    if (!decision.ok) {
      pending.rejection = decision.rejection;
      pending.sealed = [];
      pending.committed = [];
      pending.after = before;
      return;
    }
    const { commandId, actorId, correlationId } = pending.command.metadata;
    const { events: sealed, headHash } = sealEvents(
      this.streamId,
      before.revision,
      before.headHash,
      decision.events,
      { commandId, actorId, correlationId },
    );
    let state = before.state;
    const committed: CommittedEvent[] = [];
    for (const [index, event] of decision.events.entries()) {
      state = evolve(state, event);
      const envelope = sealed[index] as NewEvent;
      committed.push({
        ...event,
        id: envelope.id,
        revision: before.revision + 1 + index,
        metadata: envelope.metadata as EventMetadata,
      });
    }
    pending.rejection = undefined;
    pending.sealed = sealed;
    pending.committed = committed;
    pending.after = { state, revision: before.revision + decision.events.length, headHash };
    this.speculative = pending.after;
  }

  private scheduleFlush(): void {
    if (this.inFlight || this.flushScheduled || this.next.length === 0) return;
    this.flushScheduled = true;
    // One macrotask of delay lets every command that arrives in this turn join the batch.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    if (this.inFlight || this.next.length === 0) return;
    const batch = this.next.length <= this.maxBatch ? this.next : this.next.slice(0, this.maxBatch);
    this.next = this.next.length <= this.maxBatch ? [] : this.next.slice(this.maxBatch);
    this.inFlight = true;
    const events: NewEvent[] = [];
    for (const pending of batch) for (const event of pending.sealed) events.push(event);
    const expected = this.committed.revision < 0 ? 'no_stream' : this.committed.revision;
    try {
      const result =
        events.length > 0 ? await this.store.append(this.streamId, events, expected) : undefined;
      this.commit(batch, result?.position);
    } catch (error) {
      await this.recover(batch, events, error);
    } finally {
      this.inFlight = false;
      this.scheduleFlush();
      if (this.idle) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private commit(batch: readonly Pending[], position: number | undefined): void {
    const last = batch[batch.length - 1];
    if (last?.after) this.committed = last.after;
    for (const pending of batch) {
      if (pending.rejection) {
        pending.resolve({ ok: false, auctionId: this.auctionId, rejection: pending.rejection });
        continue;
      }
      const after = pending.after as Snapshot;
      pending.resolve({
        ok: true,
        auctionId: this.auctionId,
        events: pending.committed,
        revision: after.revision,
        position: pending.committed.length > 0 ? position : undefined,
        currentBid: after.state.currentBid,
        leadingBidId: after.state.leadingBidId,
        status: after.state.status,
      });
    }
  }

  private async recover(batch: Pending[], events: NewEvent[], error: unknown): Promise<void> {
    let reread: { snapshot: Snapshot; read: RecordedEvent[] };
    try {
      reread = await catchUp(this.store, this.streamId, this.committed);
    } catch (rereadError) {
      this.broken = true;
      for (const pending of [...batch, ...this.next.splice(0)])
        pending.reject(unavailable(rereadError));
      return;
    }
    const { snapshot, read } = reread;
    const first = events[0];
    const landed =
      !(error instanceof WrongExpectedRevisionError) &&
      first !== undefined &&
      read[0]?.id === first.id &&
      read.length >= events.length;
    const retry: Pending[] = [];
    if (landed) {
      // The append reported failure but did commit (e.g. a lost reply): its callers succeeded.
      this.commit(batch, read[events.length - 1]?.position);
    } else if (error instanceof WrongExpectedRevisionError) {
      retry.push(...batch);
    } else {
      for (const pending of batch) pending.reject(unavailable(error));
    }
    this.committed = snapshot;
    this.speculative = snapshot;
    retry.push(...this.next.splice(0));
    for (const pending of retry) {
      if (error instanceof WrongExpectedRevisionError && batch.includes(pending))
        pending.conflicts++;
      if (pending.conflicts > this.maxConflictRetries) {
        pending.resolve({
          ok: false,
          auctionId: this.auctionId,
          rejection: rejection('CONCURRENCY_CONFLICT'),
        });
        continue;
      }
      this.decideInto(pending);
      this.next.push(pending);
    }
  }
}
