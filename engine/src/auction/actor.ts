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
import { type SaltKey, localSaltKey, sealEvents } from '../chain/seal';
import type { CommandOutcome, CommittedEvent, OutcomeBid } from '../command-bus/command-bus';
import {
  DuplicateEventIdError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store';
import {
  type CommittedCommand,
  CommittedCommands,
  type LearnedCommand,
  bidAfter,
  committedCommand,
  covers,
  enteredBid,
  learnEvent,
  replayedOutcome,
  requestSealOf,
  sameRequest,
} from './command-dedup';
import type { AuctionState } from './decider-types';
import { decide } from './decide';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import type { SnapshotStore, StoredSnapshot } from '../event-store/snapshot-store';
import { evolve } from './evolve';
import { initialState } from './state';

/** The actor's view of its stream: the folded state, the last revision and the chain's head. */
export interface Snapshot {
  readonly state: AuctionState;
  readonly revision: number;
  readonly headHash: string;
}

interface Waiter {
  readonly resolve: (outcome: CommandOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface Pending {
  readonly command: AuctionCommand;
  /** The first delivery's caller, then every duplicate that arrived while this one was pending. */
  readonly waiters: Waiter[];
  conflicts: number;
  /** Set when decided: a refusal, or the sealed events and the speculative snapshot after them. */
  rejection: Rejection | undefined;
  sealed: NewEvent[];
  committed: CommittedEvent[];
  after: Snapshot | undefined;
  /** A bidding command's bid after its events (what its outcome carries). */
  bid: OutcomeBid | undefined;
}

export interface ActorOptions {
  /** Upper bound of commands appended in one batch. */
  readonly maxBatch?: number;
  /** How often a command is re-decided after another writer moved the stream. */
  readonly maxConflictRetries?: number;
  /**
   * A refusal that comes before the rules, checked each time a command is decided (the commands of
   * an account being deleted: `account/account-closures.ts`).
   */
  readonly refuse?: (command: AuctionCommand) => Rejection | undefined;
  /**
   * The key the events' salts are derived from (`chain/seal.ts`): the same on every node of a
   * cluster. Default: this process's own.
   */
  readonly saltKey?: SaltKey;
}

/**
 * Commands per append: no more than the store's writer thread takes in one group, so that even
 * one hot auction keeps two batches in the pipeline (one written, the next one deciding).
 */
const DEFAULT_MAX_BATCH = 500;

const unavailable = (cause: unknown): DomainError => {
  const error = new DomainError(rejection('UNAVAILABLE'));
  error.cause = cause;
  return error;
};

/**
 * Reads the stream after `from` and folds it, validating every event read back. `commands` are
 * the commands the read shows, with their revision ranges and the state after each (see
 * `command-dedup.ts`).
 */
export const catchUp = async (
  store: EventStore,
  streamId: string,
  from: Snapshot,
): Promise<{ snapshot: Snapshot; read: RecordedEvent[]; commands: LearnedCommand[] }> =>
  foldRead(from, await store.readStream(streamId, { fromRevision: from.revision + 1 }));

/** Folds `read`, the events right after `from`, into it (see `catchUp`). */
const foldRead = (
  from: Snapshot,
  read: RecordedEvent[],
): { snapshot: Snapshot; read: RecordedEvent[]; commands: LearnedCommand[] } => {
  let { state, revision, headHash } = from;
  const commands: LearnedCommand[] = [];
  for (const recorded of read) {
    const event = AuctionEvent.parse({ type: recorded.type, data: recorded.data });
    state = evolve(state, event);
    revision = recorded.revision;
    const metadata = EventMetadata.parse(recorded.metadata);
    headHash = metadata.hash;
    learnEvent(commands, metadata, recorded, event, state);
  }
  return { snapshot: { state, revision, headHash }, read, commands };
};

/**
 * The stream folded from a stored snapshot: the snapshot's own last event is read back with the
 * tail, and the snapshot is taken only if that event is where it says with the hash it says (a
 * snapshot of a stream that was since replaced, or is shorter than it, is ignored). Undefined
 * when there is no usable snapshot; the caller then folds the whole stream.
 */
export const catchUpFromSnapshot = async (
  store: EventStore,
  snapshots: SnapshotStore,
  streamId: string,
): Promise<
  | { snapshot: Snapshot; read: RecordedEvent[]; commands: LearnedCommand[]; tail: number }
  | undefined
> => {
  let stored: StoredSnapshot | undefined;
  try {
    stored = await snapshots.loadSnapshot(streamId);
  } catch {
    return undefined;
  }
  const decoded = stored && decodeSnapshot(stored);
  if (!decoded) return undefined;
  const { view, commands: kept } = decoded;
  const read = await store.readStream(streamId, { fromRevision: view.revision });
  const [last, ...tail] = read;
  const lastHash = (last?.metadata as { hash?: unknown } | undefined)?.hash;
  if (last?.revision !== view.revision || lastHash !== view.headHash) return undefined;
  const folded = foldRead(view, tail);
  return { ...folded, commands: [...kept, ...folded.commands], tail: tail.length };
};

export const emptySnapshot = (streamId: string): Snapshot => ({
  state: initialState,
  revision: -1,
  headHash: genesisHash(streamId),
});

/**
 * One auction's single writer: decides commands in arrival order against the speculative state and
 * appends each batch as one group, answering callers only once it commits. A redelivered command
 * gets its original outcome; another writer shows up as a conflict, which re-reads the stream and
 * re-decides. Why refusals and no-ops check the stream's head: the README's "Actor".
 */
export class AuctionActor {
  readonly streamId: string;
  /** Set when the actor could not re-read its stream after a failure: the registry replaces it. */
  broken = false;
  lastUsed = 0;
  /** The revision of the snapshot the store holds, as far as this actor knows. */
  private savedRevision = -1;
  private committed: Snapshot;
  private speculative: Snapshot;
  private next: Pending[] = [];
  /** Every command decided and not yet answered, by command id (queued or in flight). */
  private readonly pending = new Map<string, Pending>();
  /** Commands committed in the stream, as far as this actor has read or written it. */
  private readonly commands = new CommittedCommands();
  /** Duplicates being answered from the store. */
  private replays = 0;
  private inFlight = false;
  private flushScheduled = false;
  private idleWaiters: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly maxConflictRetries: number;
  private readonly refuse: ActorOptions['refuse'];
  private readonly saltKey: SaltKey;

  private constructor(
    private readonly store: EventStore,
    readonly auctionId: string,
    snapshot: Snapshot,
    learned: readonly LearnedCommand[],
    options: ActorOptions,
  ) {
    this.streamId = auctionStream(auctionId);
    this.committed = snapshot;
    this.speculative = snapshot;
    this.commands.learn(learned);
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.maxConflictRetries = options.maxConflictRetries ?? 10;
    this.refuse = options.refuse;
    this.saltKey = options.saltKey ?? localSaltKey;
  }

  /**
   * Loads the actor: from its stored snapshot and the events after it when `snapshots` holds a
   * usable one, else by folding the whole stream.
   */
  static async load(
    store: EventStore,
    auctionId: string,
    options: ActorOptions = {},
    snapshots?: SnapshotStore,
  ): Promise<AuctionActor> {
    const streamId = auctionStream(auctionId);
    const fromSnapshot = snapshots && (await catchUpFromSnapshot(store, snapshots, streamId));
    const { snapshot, commands } =
      fromSnapshot ?? (await catchUp(store, streamId, emptySnapshot(streamId)));
    const actor = new AuctionActor(store, auctionId, snapshot, commands, options);
    // Reloaded from a snapshot with nothing after it: nothing new to save.
    if (fromSnapshot && fromSnapshot.tail === 0) actor.savedRevision = snapshot.revision;
    return actor;
  }

  /**
   * The auction's committed state, read and not kept: from its stored snapshot and the events
   * after it, or its whole stream when there is no usable snapshot (as `load` reads it). No actor
   * is made, so a reader never becomes a second writer of an auction another node owns.
   */
  static async read(
    store: EventStore,
    auctionId: string,
    snapshots?: SnapshotStore,
  ): Promise<Snapshot> {
    const streamId = auctionStream(auctionId);
    const fromSnapshot = snapshots && (await catchUpFromSnapshot(store, snapshots, streamId));
    return (fromSnapshot ?? (await catchUp(store, streamId, emptySnapshot(streamId)))).snapshot;
  }

  /**
   * The committed state and exactly-once record as a snapshot to store, or undefined when the
   * store already holds this revision's (or the stream is empty, or the actor is broken).
   */
  toStoredSnapshot(): StoredSnapshot | undefined {
    const view = this.committed;
    if (this.broken || view.revision < 0 || view.revision === this.savedRevision) return undefined;
    return encodeSnapshot(view, this.commands.entries());
  }

  /** Records that the store holds the snapshot of `revision`. */
  snapshotSaved(revision: number): void {
    this.savedRevision = Math.max(this.savedRevision, revision);
  }

  /** The committed snapshot (what the store holds as far as this actor knows). */
  get snapshot(): Snapshot {
    return this.committed;
  }

  get idle(): boolean {
    return !this.inFlight && !this.flushScheduled && this.next.length === 0 && this.replays === 0;
  }

  send(command: AuctionCommand): Promise<CommandOutcome> {
    const commandId = command.metadata.commandId;
    const committed = this.commands.get(commandId);
    if (committed)
      return sameRequest(committed, command)
        ? this.replay(commandId, committed)
        : Promise.resolve(this.keyReused());
    const original = this.pending.get(commandId);
    const digest = original?.command.metadata.requestDigest;
    if (digest !== undefined && command.metadata.requestDigest !== undefined)
      if (digest !== command.metadata.requestDigest) return Promise.resolve(this.keyReused());
    return new Promise<CommandOutcome>((resolve, reject) => {
      if (original) {
        original.waiters.push({ resolve, reject });
        return;
      }
      const pending: Pending = {
        command,
        waiters: [{ resolve, reject }],
        conflicts: 0,
        rejection: undefined,
        sealed: [],
        committed: [],
        after: undefined,
        bid: undefined,
      };
      this.pending.set(commandId, pending);
      this.decideInto(pending);
      this.next.push(pending);
      this.scheduleFlush();
    });
  }

  /** The answer to a command whose id was first sent with another request (Idempotency-Key). */
  private keyReused(): CommandOutcome {
    return {
      ok: false,
      auctionId: this.auctionId,
      rejection: rejection('IDEMPOTENCY_KEY_REUSED'),
    };
  }

  /** Resolves when nothing is queued or in flight. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private answer(pending: Pending, outcome: CommandOutcome): void {
    this.forget(pending);
    for (const waiter of pending.waiters) waiter.resolve(outcome);
  }

  private fail(pending: Pending, error: unknown): void {
    this.forget(pending);
    for (const waiter of pending.waiters) waiter.reject(error);
  }

  /** No longer pending: a later delivery of its id is answered from the stream or decided anew. */
  private forget(pending: Pending): void {
    const commandId = pending.command.metadata.commandId;
    if (this.pending.get(commandId) === pending) this.pending.delete(commandId);
  }

  private wakeIfIdle(): void {
    if (this.idle) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** The original outcome of a committed command, its events re-read from the store. */
  private async replay(commandId: string, record: CommittedCommand): Promise<CommandOutcome> {
    this.replays++;
    try {
      const read = await this.store.readStream(this.streamId, {
        fromRevision: record.first,
        toRevision: record.last,
      });
      return replayedOutcome(this.auctionId, commandId, record, read);
    } catch (error) {
      throw unavailable(error);
    } finally {
      this.replays--;
      this.wakeIfIdle();
    }
  }

  private decideInto(pending: Pending): void {
    const before = this.speculative;
    const refused = this.refuse?.(pending.command);
    const decision = refused
      ? { ok: false as const, rejection: refused }
      : decide(pending.command, before.state);
    if (!decision.ok) {
      pending.rejection = decision.rejection;
      pending.sealed = [];
      pending.committed = [];
      pending.after = before;
      pending.bid = undefined;
      return;
    }
    const { events: sealed, headHash } = sealEvents(
      this.streamId,
      before.revision,
      before.headHash,
      decision.events,
      pending.command.metadata,
      this.saltKey,
    );
    let state = before.state;
    let bid: OutcomeBid | undefined;
    const committed: CommittedEvent[] = [];
    for (const [index, event] of decision.events.entries()) {
      state = evolve(state, event);
      const revision = before.revision + 1 + index;
      bid = index === 0 ? enteredBid(event, revision, state) : bidAfter(bid, event, state);
      const envelope = sealed[index] as NewEvent;
      committed.push({
        ...event,
        id: envelope.id,
        revision,
        metadata: envelope.metadata as EventMetadata,
      });
    }
    pending.rejection = undefined;
    pending.sealed = sealed;
    pending.committed = committed;
    pending.bid = bid;
    pending.after = { state, revision: before.revision + decision.events.length, headHash };
    this.speculative = pending.after;
  }

  private scheduleFlush(): void {
    if (this.inFlight || this.flushScheduled || this.next.length === 0) return;
    this.flushScheduled = true;
    // One macrotask of delay lets every command that arrives in this turn join the batch.
    setImmediate(() => void this.flush());
  }

  /**
   * After a batch settles: the commands decided while it was written had their chance to join,
   * so they go out at once, before the answered callers' continuations run; their next commands
   * are then decided while this batch is written (the store writes on its own thread).
   */
  private flushAfterBatch(): void {
    if (this.inFlight || this.next.length === 0) return;
    if (this.flushScheduled) return;
    void this.flush();
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
      if (events.length === 0) {
        // Refusals and no-ops write nothing, so no append confirms the state they were decided
        // on: the stream's head does (another writer may have committed, e.g. this very command).
        const head = await this.store.streamRevision(this.streamId);
        if ((head ?? -1) !== this.committed.revision)
          throw new WrongExpectedRevisionError(this.streamId, expected, head ?? 'no_stream');
        this.commit(batch, undefined);
        return;
      }
      const result = await this.store.append(this.streamId, events, expected);
      const last = this.committed.revision + events.length;
      // An idempotent store answers an append whose event ids it already holds with where they
      // are: elsewhere than expected means another writer stored these commands first.
      if (result.nextRevision !== last)
        throw new WrongExpectedRevisionError(this.streamId, expected, result.nextRevision);
      const unconfirmed = batch.filter((pending) => pending.committed.length === 0);
      if (unconfirmed.length > 0) {
        // Where it found them in place it wrote nothing, and the stream may have gone on: then
        // only the head says whether the refusals and no-ops were decided on the latest state.
        const head = await this.store.streamRevision(this.streamId);
        if ((head ?? -1) !== last) {
          this.commit(
            batch.filter((pending) => pending.committed.length > 0),
            result.position,
          );
          await this.recover(
            unconfirmed,
            [],
            new WrongExpectedRevisionError(this.streamId, last, head ?? 'no_stream'),
          );
          return;
        }
      }
      this.commit(batch, result.position);
    } catch (error) {
      await this.recover(batch, events, error);
    } finally {
      this.inFlight = false;
      this.flushAfterBatch();
      this.wakeIfIdle();
    }
  }

  private commit(batch: readonly Pending[], position: number | undefined): void {
    const last = batch[batch.length - 1];
    if (last?.after) this.committed = last.after;
    for (const pending of batch) {
      if (pending.rejection) {
        this.answer(pending, {
          ok: false,
          auctionId: this.auctionId,
          rejection: pending.rejection,
        });
        continue;
      }
      const after = pending.after as Snapshot;
      const first = pending.committed[0];
      if (first && position !== undefined) {
        this.commands.remember(
          pending.command.metadata.commandId,
          committedCommand(
            first.revision,
            after.revision,
            position,
            after.state,
            requestSealOf(first.metadata),
            pending.bid,
          ),
        );
      }
      this.answer(pending, {
        ok: true,
        auctionId: this.auctionId,
        events: pending.committed,
        revision: after.revision,
        position: pending.committed.length > 0 ? position : undefined,
        currentBid: after.state.currentBid,
        leadingBidId: after.state.leadingBidId,
        status: after.state.status,
        ...(pending.bid === undefined ? {} : { bid: pending.bid }),
      });
    }
  }

  /**
   * Answers a pending command that the stream (as just re-read) shows committed, with its original
   * outcome. Returns whether it did.
   */
  private answerIfCommitted(pending: Pending, read: readonly RecordedEvent[]): boolean {
    const commandId = pending.command.metadata.commandId;
    const record = this.commands.get(commandId);
    if (!record) return false;
    if (covers(read, record)) {
      try {
        this.answer(pending, replayedOutcome(this.auctionId, commandId, record, read));
      } catch (error) {
        this.fail(pending, unavailable(error));
      }
    } else {
      this.forget(pending);
      this.replay(commandId, record).then(
        (outcome) => this.answer(pending, outcome),
        (error: unknown) => this.fail(pending, error),
      );
    }
    return true;
  }

  private async recover(batch: Pending[], events: NewEvent[], error: unknown): Promise<void> {
    let reread: Awaited<ReturnType<typeof catchUp>>;
    try {
      reread = await catchUp(this.store, this.streamId, this.committed);
    } catch (rereadError) {
      this.broken = true;
      for (const pending of [...batch, ...this.next.splice(0)])
        this.fail(pending, unavailable(rereadError));
      return;
    }
    const { snapshot, read, commands } = reread;
    // Another writer moved the stream (it may have stored some of these very commands).
    const conflict =
      error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;
    const landed =
      !conflict && events.length > 0 && events.every((event, i) => read[i]?.id === event.id);
    // As after an append that found its events in place, refusals and no-ops stand only if the
    // stream did not go on.
    const stands = (pending: Pending) =>
      landed && (pending.committed.length > 0 || read.length === events.length);
    // The append reported failure but did commit (e.g. a lost reply): its callers succeeded.
    if (landed) this.commit(batch.filter(stands), read[events.length - 1]?.position);
    this.committed = snapshot;
    this.speculative = snapshot;
    // After `commit`, so that the outcome this actor answered is the one it remembers.
    this.commands.learn(commands);
    const retry: Pending[] = [];
    for (const pending of batch) {
      if (stands(pending) || this.answerIfCommitted(pending, read)) continue;
      if (!conflict && !landed) {
        this.fail(pending, unavailable(error));
        continue;
      }
      pending.conflicts++;
      retry.push(pending);
    }
    for (const pending of this.next.splice(0))
      if (!this.answerIfCommitted(pending, read)) retry.push(pending);
    for (const pending of retry) {
      if (pending.conflicts > this.maxConflictRetries) {
        this.answer(pending, {
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
