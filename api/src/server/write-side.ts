import {
  AccountClosures,
  AuctionActorRegistry,
  type Clock,
  Engine,
  KafkaCluster,
  PositionFeed,
  saltKeyFrom,
} from '@auction/engine';
import type { ClusterHealth } from '../app-deps';
import type { Config } from '../config/config';
import { countOp, countingOps } from '../stores/op-counts';
import type { Stores } from './open-stores';

type Log = (message: string, error?: unknown) => void;

export interface WriteSide {
  readonly sessionSecret: string;
  readonly closures: AccountClosures;
  readonly cluster: KafkaCluster | undefined;
  /** The positions this node commits, told to the other nodes and heard from them. */
  readonly positions: PositionFeed | undefined;
  /** Stops telling the other nodes of this node's appends. */
  readonly stopTelling: (() => void) | undefined;
  readonly engine: Engine;
}

/**
 * The engine on the open stores, with its account closures and the auctions' actors (behind the
 * cluster with KAFKA_BROKERS), the fixed categories seeded. When the closures cannot load or the
 * cluster cannot be joined, the actors close and `abandon` closes the rest before the error.
 */
export const openWriteSide = async (
  config: Config,
  stores: Stores,
  { clock, log, push }: { readonly clock: Clock; readonly log: Log; readonly push: boolean },
  abandon: () => Promise<void>,
): Promise<WriteSide> => {
  const sessionSecret = config.SESSION_SECRET ?? (await stores.keptSessionSecret());
  // Every node shares the session secret, so they seal a command alike (`chain/seal.ts`).
  const saltKey = saltKeyFrom(sessionSecret);
  const closures = new AccountClosures({
    store: stores.events,
    clock,
    onError: (error) => log('Undoing a deleted account’s late bid or auction failed', error),
  });
  const local = new AuctionActorRegistry({
    store: stores.events,
    clock,
    refuse: closures.refuse,
    saltKey,
  });
  let cluster: KafkaCluster | undefined;
  try {
    await closures.load();
    cluster = await startCluster(config, local, log);
  } catch (error) {
    await local.close();
    await abandon();
    throw error;
  }
  // Told to the others so that nobody waits for a poll: the owner's appends wake the other nodes'
  // subscriptions to the shared log, and a projection's checkpoints end their reads waiting on it.
  const positions = cluster && push ? new PositionFeed(cluster, { log }) : undefined;
  const stopTelling =
    positions && stores.events.onAppended?.((position) => positions.logCommitted(position));
  positions?.onLog((position) => stores.events.appendedElsewhere?.(position));
  const engine = new Engine({ store: stores.events, clock, router: cluster ?? local, closures });
  await engine.seedFixedCategories(new Date(clock.now()).toISOString());
  return { sessionSecret, closures, cluster, positions, stopTelling, engine };
};

/** With KAFKA_BROKERS, joins the cluster: `local` then runs the actors of the auctions owned here. */
const startCluster = async (
  config: Config,
  local: AuctionActorRegistry,
  log: Log,
): Promise<KafkaCluster | undefined> => {
  if (!config.KAFKA_BROKERS) return undefined;
  return KafkaCluster.start({
    brokers: config.KAFKA_BROKERS,
    nodeId: config.NODE_ID,
    local,
    partitions: config.KAFKA_PARTITIONS,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    replyTimeoutMs: config.KAFKA_REPLY_TIMEOUT_MS,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
    connectTimeoutMs: config.STORE_CONNECT_TIMEOUT_MS,
    log,
    ...(countingOps ? { count: countOp } : {}),
  });
};

/** This node's place in the cluster, and whether the broker answers within 2 s. */
export const clusterHealth = (cluster: KafkaCluster) => async (): Promise<ClusterHealth> => {
  const reachable = await Promise.race([
    cluster.ping().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
  ]);
  return { ...cluster.status(), reachable };
};
