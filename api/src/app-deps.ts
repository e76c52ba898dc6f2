import type { ClusterStatus, Clock, Engine, EventLog } from '@auction/engine';
import type { ImageUrl, ReadStore, UserDirectory } from '@auction/projections';
import type { AccountStore } from './accounts/account-store';
import type { Config } from './config';
import type {
  ImageStore,
  RateLimitStores,
  ReadModelsReadiness,
  RealtimeControl,
  UserSessionStore,
} from './ports';
import type { StoreName, StoreStatus } from './stores';
import type { ReadModels } from './read-side/projection-thread';

export interface ClusterHealth extends ClusterStatus {
  readonly reachable: boolean;
}

/** Everything the HTTP app needs, built once by `startServer` (and by tests, the same way). */
export interface AppDeps {
  readonly config: Config;
  /** The origin browsers use to reach the app, e.g. `http://localhost:3000`. */
  readonly origin: string;
  /** The event log, to read. Every write goes through `engine`. */
  readonly events: EventLog;
  readonly read: ReadStore;
  /** The one door to the event log: auction commands, categories, account events. */
  readonly engine: Engine;
  /** The read models' runner: on its own thread (`read-side/`), or in process (`inline`). */
  readonly runner: ReadModels;
  /** Whether the read models have caught up with the log as it stood at start (`GET /health`). */
  readonly readiness: ReadModelsReadiness;
  readonly accounts: AccountStore;
  /** Public profiles for views: the account store's, their images written by `imageUrl`. */
  readonly users: UserDirectory;
  /**
   * How views write a stored image path: as it is, or absolute under the public origin when
   * clients are served from other origins (`CORS_ORIGINS`, `http/image-urls.ts`).
   */
  readonly imageUrl: ImageUrl;
  readonly sessions: UserSessionStore;
  /** Signs session cookies: SESSION_SECRET, or one kept with the sessions (see `Stores`). */
  readonly sessionSecret: string;
  readonly images: ImageStore;
  /** Where rate-limit counters live (shared across nodes on MongoDB). */
  readonly rateLimits: RateLimitStores;
  /** Whether each store answers (`GET /health`). */
  readonly storeHealth: (timeoutMs?: number) => Promise<Record<StoreName, StoreStatus>>;
  /** This node's place in the cluster and whether the broker answers; none on one process. */
  readonly clusterHealth?: (() => Promise<ClusterHealth>) | undefined;
  readonly clock: Clock;
  /** Lets routes end sockets (logout, account deletion). */
  readonly realtime: RealtimeControl;
  readonly log: (message: string, error?: unknown) => void;
}
