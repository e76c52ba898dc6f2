import { AuctionCommand, DomainError, rejection } from '@auction/contracts';
import {
  type Admin,
  type Consumer,
  type EachBatchPayload,
  Kafka,
  type KafkaMessage,
  type Producer,
  logLevel,
} from 'kafkajs';
import { z } from 'zod';
import type { Snapshot } from '../auction/actor';
import type { AuctionActorRegistry } from '../auction/actor-registry';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { CommandRouter } from '../command-bus/command-router';
import { partitionOf } from './partitioner';
import { clusterNames } from './topic-names';

export interface KafkaClusterOptions {
  /** `host:port` of at least one broker. */
  readonly brokers: readonly string[];
  /** This node's name, unique in the cluster: it names its reply topic and its consumer groups. */
  readonly nodeId: string;
  /** Runs the actors of the auctions this node owns. The cluster closes it. */
  readonly local: AuctionActorRegistry;
  /** Partitions of the commands topic; fixed for the topic's whole life (see `partitioner.ts`). */
  readonly partitions: number;
  /**
   * Put before every topic and group name (tests give each cluster its own), with a `.` after it
   * unless it ends in `.`, `_` or `-` (`topic-names.ts`).
   */
  readonly topicPrefix?: string;
  /** How long a sender waits for its command's outcome before answering "try again". */
  readonly replyTimeoutMs?: number;
  /** How long reaching the broker may take at start. */
  readonly connectTimeoutMs?: number;
  /** A dead node's partitions move after this long without its heartbeat. */
  readonly sessionTimeoutMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
  /**
   * Told of the Kafka work this node does, for diagnostics (the cluster benchmark's counts):
   * `kafka produce-request`, `kafka produce <kind>` (messages), `kafka consume <kind>`,
   * `kafka commit`, `kafka fetch <group>`, where kind is commands, reply or broadcast.
   */
  readonly count?: (key: string, n?: number) => void;
}

export interface ClusterStatus {
  readonly nodeId: string;
  readonly partitions: number;
  /** The partitions of the commands topic this node owns now. */
  readonly owned: readonly number[];
}

/** A message for every other node (notifications to push, sockets to end). */
export interface BroadcastMessage {
  readonly channel: string;
  readonly data: unknown;
}

/** What travels on the commands topic: the command and where its outcome goes. */
const CommandEnvelope = z.object({ v: z.literal(1), command: AuctionCommand, replyTo: z.string() });
type CommandEnvelope = z.infer<typeof CommandEnvelope>;

/**
 * What travels back on the sender's reply topic: the outcome, `unavailable` (the owner could not
 * reach the store: the sender answers 503), or `moved` (the node no longer owns the partition, or
 * is stopping: the sender sends again, to whichever node owns it by then).
 */
const Reply = z.union([
  z.object({ v: z.literal(1), commandId: z.string(), outcome: z.unknown() }),
  z.object({ v: z.literal(1), commandId: z.string(), refused: z.enum(['unavailable', 'moved']) }),
]);
type Reply = z.infer<typeof Reply>;

const Broadcast = z.object({
  v: z.literal(1),
  from: z.string(),
  channel: z.string(),
  data: z.unknown(),
});

interface Waiting {
  readonly envelope: CommandEnvelope;
  readonly partition: number;
  readonly deadline: number;
  readonly resolve: (outcome: CommandOutcome) => void;
  readonly reject: (error: unknown) => void;
  timer: NodeJS.Timeout | undefined;
}

interface Outgoing {
  readonly topic: string;
  readonly message: { key?: string; partition?: number; value: string };
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** How soon a sender sends again a command whose owner answered `moved`. */
const RESEND_AFTER_MS = 100;

const unavailable = (cause: unknown): DomainError => {
  const error = new DomainError(rejection('UNAVAILABLE'));
  error.cause = cause;
  return error;
};

const defaultLog = (message: string, error?: unknown) => console.error(message, error ?? '');

const alreadyExists = (error: unknown): boolean => {
  const { type, errors } = error as { type?: string; errors?: { type?: string }[] };
  if (type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(errors) && errors.every((e) => e.type === 'TOPIC_ALREADY_EXISTS');
};

const withTimeout = <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

/**
 * The Kafka command router: auction commands keyed by auction id, one owner per partition, offsets
 * committed only once every command of a batch is answered, and expected revision as the fence
 * against a stale owner. How and why, step by step: engine/src/cluster/README.md.
 */
export class KafkaCluster implements CommandRouter {
  private readonly commandsTopic: string;
  private readonly broadcastTopic: string;
  private readonly replyTopic: string;
  private readonly replyTimeoutMs: number;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly count: (key: string, n?: number) => void;
  private readonly waiting = new Map<string, Set<Waiting>>();
  private readonly ownershipListeners = new Set<() => void>();
  private readonly broadcastListeners = new Set<(message: BroadcastMessage) => void>();
  private readonly batches = new Set<Promise<void>>();
  /** This node's senders still waiting for an outcome. */
  private readonly sending = new Set<Promise<CommandOutcome>>();
  private outbox: Outgoing[] = [];
  private flushing = false;
  private owned = new Set<number>();
  private rebalancing = true;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly options: KafkaClusterOptions,
    private readonly admin: Admin,
    private readonly producer: Producer,
    private readonly commands: Consumer,
    private readonly node: Consumer,
  ) {
    const names = clusterNames(options.topicPrefix, options.nodeId);
    this.commandsTopic = names.commandsTopic;
    this.broadcastTopic = names.broadcastTopic;
    this.replyTopic = names.replyTopic;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 15_000;
    this.log = options.log ?? defaultLog;
    this.count = options.count ?? (() => undefined);
  }

  private kind(topic: string): string {
    if (topic === this.commandsTopic) return 'commands';
    return topic === this.broadcastTopic ? 'broadcast' : 'reply';
  }

  /**
   * Connects, creates the topics that are missing (and refuses a commands topic whose partition
   * count differs from `partitions`), joins the node's reply and broadcast groups, and joins the
   * commands group; resolves once this node has its first assignment (or after 30 s, when the
   * group takes longer to settle: commands wait for their owner meanwhile).
   */
  static async start(options: KafkaClusterOptions): Promise<KafkaCluster> {
    // kafkajs warns that its default partitioner changed in 2.0; every message here names its
    // partition (Kafka's own default, see partitioner.ts), so the warning does not apply.
    process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
    const log = options.log ?? defaultLog;
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const kafka = new Kafka({
      clientId: `auction-${options.nodeId}`,
      brokers: [...options.brokers],
      connectionTimeout: Math.min(connectTimeoutMs, 3000),
      // Its warnings narrate every rebalance; errors are worth a line.
      logLevel: logLevel.ERROR,
      logCreator: () => (entry) => {
        if (entry.level <= logLevel.ERROR) log(`kafka: ${entry.log.message}`, entry.log.error);
      },
    });
    const names = clusterNames(options.topicPrefix, options.nodeId);
    const sessionTimeout = options.sessionTimeoutMs ?? 6000;
    const admin = kafka.admin();
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    const commands = kafka.consumer({
      groupId: names.commandsGroup,
      sessionTimeout,
      rebalanceTimeout: 30_000,
      heartbeatInterval: Math.min(500, sessionTimeout / 6),
      maxWaitTimeInMs: 200,
    });
    const node = kafka.consumer({
      groupId: names.nodeGroup,
      sessionTimeout,
      heartbeatInterval: Math.min(500, sessionTimeout / 6),
      maxWaitTimeInMs: 200,
    });
    const cluster = new KafkaCluster(options, admin, producer, commands, node);
    try {
      await withTimeout(
        admin.connect(),
        connectTimeoutMs,
        `KAFKA_BROKERS: cannot reach ${options.brokers.join(',')}`,
      );
      await cluster.ensureTopics();
      await producer.connect();
      await cluster.startNodeConsumer();
      await cluster.startCommandConsumer();
    } catch (error) {
      await Promise.allSettled([
        node.disconnect(),
        commands.disconnect(),
        producer.disconnect(),
        admin.disconnect(),
      ]);
      throw error;
    }
    return cluster;
  }

  /** Sends the command to its auction's owner and resolves with the outcome it answers. */
  send(command: AuctionCommand): Promise<CommandOutcome> {
    if (this.closing) return Promise.reject(unavailable(new Error('The node is stopping')));
    const auctionId = command.data.auctionId;
    const envelope: CommandEnvelope = { v: 1, command, replyTo: this.replyTopic };
    const sent = new Promise<CommandOutcome>((resolve, reject) => {
      const waiting: Waiting = {
        envelope,
        partition: partitionOf(auctionId, this.options.partitions),
        deadline: Date.now() + this.replyTimeoutMs,
        resolve,
        reject,
        timer: undefined,
      };
      const commandId = command.metadata.commandId;
      let set = this.waiting.get(commandId);
      if (!set) this.waiting.set(commandId, (set = new Set()));
      set.add(waiting);
      waiting.timer = setTimeout(() => {
        this.settle(waiting);
        reject(
          unavailable(
            new Error(`No outcome for command ${commandId} within ${this.replyTimeoutMs} ms`),
          ),
        );
      }, this.replyTimeoutMs);
      this.produce(waiting);
    });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent)).catch(() => undefined);
    return sent;
  }

  owns(auctionId: string): boolean {
    return !this.rebalancing && this.owned.has(partitionOf(auctionId, this.options.partitions));
  }

  /** The committed state of an auction this node owns, when its actor is in memory. */
  snapshotOf(auctionId: string): Snapshot | undefined {
    return this.owns(auctionId) ? this.options.local.snapshotOf(auctionId) : undefined;
  }

  onOwnershipChange(listener: () => void): () => void {
    this.ownershipListeners.add(listener);
    return () => this.ownershipListeners.delete(listener);
  }

  /** Sends a message to every other node's `onBroadcast` listeners (at most once each). */
  async broadcast(message: BroadcastMessage): Promise<void> {
    await this.enqueue(this.broadcastTopic, {
      value: JSON.stringify({ v: 1, from: this.options.nodeId, ...message }),
    });
  }

  onBroadcast(listener: (message: BroadcastMessage) => void): () => void {
    this.broadcastListeners.add(listener);
    return () => this.broadcastListeners.delete(listener);
  }

  status(): ClusterStatus {
    return {
      nodeId: this.options.nodeId,
      partitions: this.options.partitions,
      owned: this.rebalancing ? [] : [...this.owned].sort((a, b) => a - b),
    };
  }

  /** Whether a broker answers (health). */
  async ping(): Promise<void> {
    await this.admin.fetchTopicMetadata({ topics: [this.commandsTopic] });
  }

  /**
   * Leaves the cluster: stops taking commands (its partitions move to the other nodes, which
   * answer what it left uncommitted), waits for its own senders' outcomes up to their deadlines,
   * then disconnects and removes its reply topic.
   */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.commands.disconnect().catch((error: unknown) => this.log('kafka: leaving', error));
      await Promise.allSettled([...this.batches]);
      this.rebalancing = true;
      await this.options.local.close();
      await Promise.allSettled([...this.sending]);
      await this.node.disconnect().catch(() => undefined);
      await this.producer.disconnect().catch(() => undefined);
      await this.admin
        .deleteTopics({ topics: [this.replyTopic], timeout: 2000 })
        .catch(() => undefined);
      await this.admin.disconnect().catch(() => undefined);
    })());
  }

  private async ensureTopics(): Promise<void> {
    const { partitions } = this.options;
    const existing = new Set(await this.admin.listTopics());
    const wanted = [
      { topic: this.commandsTopic, numPartitions: partitions },
      { topic: this.broadcastTopic, numPartitions: 1 },
      {
        topic: this.replyTopic,
        numPartitions: 1,
        configEntries: [{ name: 'retention.ms', value: String(60 * 60_000) }],
      },
    ].filter(({ topic }) => !existing.has(topic));
    if (wanted.length > 0) {
      await this.admin
        .createTopics({ waitForLeaders: true, topics: wanted })
        .catch((error: unknown) => {
          // Another node, starting at the same moment, created some first.
          if (!alreadyExists(error)) throw error;
        });
    }
    const metadata = await this.topicMetadata();
    const actual = metadata.topics[0]?.partitions.length;
    if (actual !== partitions) {
      throw new Error(
        `KAFKA_PARTITIONS: the topic ${this.commandsTopic} has ${actual} partitions and this node is configured with ${partitions}; the count never changes once the topic exists, because a new count sends an auction's commands to another partition`,
      );
    }
  }

  /** The commands topic's metadata, once every partition has a leader (a new topic takes a moment). */
  private async topicMetadata() {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const metadata = await this.admin.fetchTopicMetadata({ topics: [this.commandsTopic] });
        const partitions = metadata.topics[0]?.partitions ?? [];
        if (partitions.length > 0 && partitions.every((p) => p.leader >= 0)) return metadata;
        if (Date.now() > deadline) return metadata;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async startNodeConsumer(): Promise<void> {
    const joined = new Promise<void>((resolve) => {
      const stop = this.node.on(this.node.events.GROUP_JOIN, () => {
        stop();
        resolve();
      });
    });
    if (this.options.count) {
      this.node.on(this.node.events.FETCH, () => this.count('kafka fetch node'));
    }
    await this.node.connect();
    await this.node.subscribe({ topics: [this.replyTopic, this.broadcastTopic] });
    await this.node.run({
      eachMessage: ({ topic, message }) => {
        this.count(`kafka consume ${this.kind(topic)}`);
        if (topic === this.replyTopic) this.received(message);
        else this.broadcasted(message);
        return Promise.resolve();
      },
    });
    await withTimeout(joined, 30_000, `kafka: this node's reply group did not form`);
  }

  private async startCommandConsumer(): Promise<void> {
    let first: (() => void) | undefined;
    const joined = new Promise<void>((resolve) => (first = resolve));
    this.commands.on(this.commands.events.REBALANCING, () => {
      this.rebalancing = true;
    });
    this.commands.on(this.commands.events.GROUP_JOIN, (event) => {
      const owned = new Set(event.payload.memberAssignment[this.commandsTopic] ?? []);
      void this.assigned(owned).finally(() => first?.());
    });
    this.commands.on(this.commands.events.CRASH, (event) => {
      this.rebalancing = true;
      this.log('kafka: the commands consumer crashed; it restarts', event.payload.error);
    });
    if (this.options.count) {
      this.commands.on(this.commands.events.FETCH, () => this.count('kafka fetch commands'));
    }
    await this.commands.connect();
    // A partition nobody committed on yet is read from its start: the commands of an owner that
    // died before its first commit are still to be decided.
    await this.commands.subscribe({ topics: [this.commandsTopic], fromBeginning: true });
    await this.commands.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitions,
      eachBatch: (payload) => this.track(this.consume(payload)),
    });
    await withTimeout(joined, 30_000, 'first assignment').catch((error: unknown) =>
      this.log('kafka: no partitions assigned yet; commands wait for their owners', error),
    );
  }

  /** A new assignment: drops the actors of partitions that moved away, then tells the listeners. */
  private async assigned(owned: Set<number>): Promise<void> {
    const lost = new Set([...this.owned].filter((partition) => !owned.has(partition)));
    this.owned = owned;
    this.rebalancing = false;
    if (lost.size > 0) {
      await this.options.local.drop((auctionId) =>
        lost.has(partitionOf(auctionId, this.options.partitions)),
      );
    }
    for (const listener of this.ownershipListeners) listener();
  }

  private track(work: Promise<void>): Promise<void> {
    this.batches.add(work);
    return work.finally(() => this.batches.delete(work));
  }

  /** One fetched batch of one partition: decide, answer, then commit its offsets. */
  private async consume(payload: EachBatchPayload) {
    const { batch } = payload;
    const { partition, messages } = batch;
    if (messages.length === 0) return;
    this.count('kafka consume commands', messages.length);
    if (
      this.closing ||
      this.rebalancing ||
      !this.owned.has(partition) ||
      !payload.isRunning() ||
      payload.isStale()
    ) {
      // Not ours (any more): the new owner reads these from the last committed offset.
      await this.answerAll(messages, 'moved');
      await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER_MS));
      return;
    }
    const replies = await Promise.all(messages.map((message) => this.decide(partition, message)));
    await Promise.allSettled(
      replies.flatMap((reply) =>
        reply ? [this.enqueue(reply.to, { value: JSON.stringify(reply.reply) })] : [],
      ),
    );
    const last = batch.lastOffset();
    payload.resolveOffset(last);
    this.count('kafka commit');
    await this.commands.commitOffsets([
      { topic: batch.topic, partition, offset: (BigInt(last) + 1n).toString() },
    ]);
  }

  private async decide(
    partition: number,
    message: KafkaMessage,
  ): Promise<{ to: string; reply: Reply } | undefined> {
    const envelope = this.parse(message);
    if (!envelope) return undefined;
    const { command, replyTo } = envelope;
    const commandId = command.metadata.commandId;
    if (partitionOf(command.data.auctionId, this.options.partitions) !== partition) {
      // Deciding it here would give the auction a second owner.
      this.log(`kafka: command ${commandId} is on partition ${partition}, not its auction's`);
      return { to: replyTo, reply: { v: 1, commandId, refused: 'unavailable' } };
    }
    try {
      const outcome = await this.options.local.send(command);
      return { to: replyTo, reply: { v: 1, commandId, outcome } };
    } catch (error) {
      this.log(`kafka: command ${commandId} failed`, error);
      return { to: replyTo, reply: { v: 1, commandId, refused: 'unavailable' } };
    }
  }

  private parse(message: KafkaMessage): CommandEnvelope | undefined {
    try {
      return CommandEnvelope.parse(JSON.parse(message.value?.toString('utf8') ?? ''));
    } catch (error) {
      // A message no node can decide must not stop its partition.
      this.log(`kafka: skipping an unreadable command at offset ${message.offset}`, error);
      return undefined;
    }
  }

  private async answerAll(messages: readonly KafkaMessage[], refused: 'moved'): Promise<void> {
    await Promise.allSettled(
      messages.flatMap((message) => {
        const envelope = this.parse(message);
        if (!envelope) return [];
        const reply: Reply = { v: 1, commandId: envelope.command.metadata.commandId, refused };
        return [this.enqueue(envelope.replyTo, { value: JSON.stringify(reply) })];
      }),
    );
  }

  /** An outcome for one of this node's senders (late or duplicate ones are ignored). */
  private received(message: KafkaMessage): void {
    let reply: Reply;
    try {
      reply = Reply.parse(JSON.parse(message.value?.toString('utf8') ?? ''));
    } catch (error) {
      this.log('kafka: skipping an unreadable reply', error);
      return;
    }
    const set = this.waiting.get(reply.commandId);
    if (!set) return;
    for (const waiting of [...set]) {
      if ('outcome' in reply) {
        this.settle(waiting);
        waiting.resolve(reply.outcome as CommandOutcome);
      } else if (reply.refused === 'unavailable') {
        this.settle(waiting);
        waiting.reject(
          unavailable(new Error(`The owner of ${reply.commandId} could not decide it`)),
        );
      } else if (Date.now() + RESEND_AFTER_MS < waiting.deadline) {
        setTimeout(() => {
          if (this.waiting.get(reply.commandId)?.has(waiting)) this.produce(waiting);
        }, RESEND_AFTER_MS).unref();
      }
    }
  }

  private broadcasted(message: KafkaMessage): void {
    let parsed: z.infer<typeof Broadcast>;
    try {
      parsed = Broadcast.parse(JSON.parse(message.value?.toString('utf8') ?? ''));
    } catch (error) {
      this.log('kafka: skipping an unreadable broadcast', error);
      return;
    }
    if (parsed.from === this.options.nodeId) return;
    for (const listener of this.broadcastListeners) {
      try {
        listener({ channel: parsed.channel, data: parsed.data });
      } catch (error) {
        this.log(`kafka: a ${parsed.channel} broadcast listener failed`, error);
      }
    }
  }

  private produce(waiting: Waiting): void {
    const { envelope, partition } = waiting;
    this.enqueue(this.commandsTopic, {
      key: envelope.command.data.auctionId,
      partition,
      value: JSON.stringify(envelope),
    }).catch((error: unknown) => {
      if (!this.settle(waiting)) return;
      waiting.reject(unavailable(error));
    });
  }

  /** Forgets a sender; returns whether it was still waiting. */
  private settle(waiting: Waiting): boolean {
    clearTimeout(waiting.timer);
    const commandId = waiting.envelope.command.metadata.commandId;
    const set = this.waiting.get(commandId);
    if (!set?.delete(waiting)) return false;
    if (set.size === 0) this.waiting.delete(commandId);
    return true;
  }

  /** Queues a message; everything queued in one turn goes out in one produce request. */
  private enqueue(topic: string, message: Outgoing['message']): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outbox.push({ topic, message, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.outbox.length > 0) {
      const sending = this.outbox;
      this.outbox = [];
      const byTopic = new Map<string, Outgoing['message'][]>();
      for (const { topic, message } of sending) {
        const list = byTopic.get(topic) ?? [];
        list.push(message);
        byTopic.set(topic, list);
      }
      this.count('kafka produce-request');
      for (const { topic } of sending) this.count(`kafka produce ${this.kind(topic)}`);
      try {
        await this.producer.sendBatch({
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        });
        for (const outgoing of sending) outgoing.resolve();
      } catch (error) {
        for (const outgoing of sending) outgoing.reject(error);
      }
    }
    this.flushing = false;
  }
}
