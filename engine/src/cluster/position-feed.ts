import { z } from 'zod';
import type { BroadcastMessage } from './kafka-cluster';

/** The cluster's broadcast, as `KafkaCluster` offers it. */
export interface BroadcastChannel {
  broadcast(message: BroadcastMessage): Promise<void>;
  onBroadcast(listener: (message: BroadcastMessage) => void): () => void;
}

/** The broadcast channel positions travel on. */
export const POSITIONS_CHANNEL = 'positions';

const Position = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * One message: the highest log position the sender committed, and the checkpoints it committed,
 * by projection name, since its last message. Either may be missing; unknown fields are ignored.
 */
const Positions = z.object({
  log: Position.optional(),
  checkpoints: z.record(z.string().min(1).max(200), Position).optional(),
});
type Positions = z.infer<typeof Positions>;

export interface PositionFeedOptions {
  readonly log?: (message: string, error?: unknown) => void;
}

/**
 * Pushes what a node committed (log positions, projection checkpoints) to the other nodes, so their
 * subscriptions and read-your-writes waits need not wait for a poll. Coalesced to one message in
 * flight per node; at most once, so the polls stay as the safety net. See README.md here.
 */
export class PositionFeed {
  private pendingLog: number | undefined;
  private readonly pendingCheckpoints = new Map<string, number>();
  private inFlight = false;
  private closed = false;
  private readonly logListeners = new Set<(position: number) => void>();
  private readonly checkpointListeners = new Set<(name: string, position: number) => void>();
  private readonly unsubscribe: () => void;
  private readonly log: (message: string, error?: unknown) => void;
  private sent = 0;
  private ignored = 0;

  constructor(
    private readonly channel: BroadcastChannel,
    options: PositionFeedOptions = {},
  ) {
    this.log = options.log ?? (() => undefined);
    this.unsubscribe = channel.onBroadcast((message) => {
      if (message.channel !== POSITIONS_CHANNEL || this.closed) return;
      const parsed = Positions.safeParse(message.data);
      if (!parsed.success) {
        this.ignored += 1;
        return;
      }
      this.received(parsed.data);
    });
  }

  /** This node committed the log up to `position`. */
  logCommitted(position: number): void {
    if (this.pendingLog === undefined || position > this.pendingLog) this.pendingLog = position;
    this.send();
  }

  /** This node committed projection `name`'s checkpoint at `position`. */
  checkpointCommitted(name: string, position: number): void {
    const pending = this.pendingCheckpoints.get(name);
    if (pending === undefined || position > pending) this.pendingCheckpoints.set(name, position);
    this.send();
  }

  /** Another node committed the log up to a position. */
  onLog(listener: (position: number) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Another node committed a projection's checkpoint. */
  onCheckpoint(listener: (name: string, position: number) => void): () => void {
    this.checkpointListeners.add(listener);
    return () => this.checkpointListeners.delete(listener);
  }

  /** Messages sent, and received ones ignored as malformed (diagnostics). */
  counts(): { readonly sent: number; readonly ignored: number } {
    return { sent: this.sent, ignored: this.ignored };
  }

  /** Stops sending and listening (before the cluster closes). */
  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  private send(): void {
    if (this.inFlight || this.closed) return;
    const message: Positions = {};
    if (this.pendingLog !== undefined) message.log = this.pendingLog;
    if (this.pendingCheckpoints.size > 0)
      message.checkpoints = Object.fromEntries(this.pendingCheckpoints);
    if (message.log === undefined && message.checkpoints === undefined) return;
    this.pendingLog = undefined;
    this.pendingCheckpoints.clear();
    this.inFlight = true;
    this.sent += 1;
    this.channel
      .broadcast({ channel: POSITIONS_CHANNEL, data: message })
      // Lost: the receivers' polls find it. Not sent again: a later message carries more.
      .catch((error: unknown) => this.log('Could not tell the other nodes of positions', error))
      .finally(() => {
        this.inFlight = false;
        this.send();
      });
  }

  private received(message: Positions): void {
    if (message.log !== undefined) {
      for (const listener of this.logListeners) this.call(() => listener(message.log as number));
    }
    for (const [name, position] of Object.entries(message.checkpoints ?? {})) {
      for (const listener of this.checkpointListeners) this.call(() => listener(name, position));
    }
  }

  private call(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.log('A positions listener failed', error);
    }
  }
}
