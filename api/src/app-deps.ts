import type { ClusterStatus, Clock, Engine, EventLog } from '@auction/engine';
import type {
  ImageUrl,
  ProjectionRunner,
  ProjectionStatus,
  ReadStore,
  UserDirectory,
} from '@auction/projections';
import type { AccountStore } from './accounts/account-store';
import type { Config } from './config/config';
import type { ImageStore } from './stores/images/image-store';
import type { RateLimitStores } from './stores/rate-limits/rate-limit-store';
import type { UserSessionStore } from './stores/sessions/session-store';

export interface ClusterHealth extends ClusterStatus {
  readonly reachable: boolean;
}

/**
 * The read models as the routes may ask of them: whether a position is applied, a bounded wait for
 * it, their status. The projection runner in process, or the thread that runs it (`server/`).
 */
export type ReadModels = Pick<
  ProjectionRunner,
  'start' | 'stop' | 'rebuild' | 'status' | 'reached' | 'waitFor' | 'followedCheckpoint'
>;

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
  /** The read models' runner: on its own thread (`server/read-side/`), or in process (`inline`). */
  readonly runner: ReadModels;
  /** Whether the read models have caught up with the log as it stood at start (`GET /health`). */
  readonly readiness: ReadModelsReadiness;
  readonly accounts: AccountStore;
  /** Public profiles for views: the account store's, their images written by `imageUrl`. */
  readonly users: UserDirectory;
  /**
   * How views write a stored image path: as it is, or absolute under the public origin when
   * clients are served from other origins (`CORS_ORIGINS`, `stores/images/image-urls.ts`).
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

/** What `GET /health` says about the read models while they catch up. */
export interface ReadModelsHealth {
  readonly ready: boolean;
  /** The log's last position when the server started: ready once every read model reached it. */
  readonly startHead: number;
  /** Why the read models could not start, if they could not. */
  readonly error?: string;
  readonly projections: readonly ProjectionStatus[];
}

/** Whether the read models caught up with the log as it stood at start (`Readiness`, `http/middleware/readiness.ts`). */
export interface ReadModelsReadiness {
  /** How long a request that needs the read models waits for them (`readinessGate`). */
  readonly waitMs: number;
  isReady(): boolean;
  /** The projections could not start: reads answer 503 and health says why, until a restart. */
  isFailed(): boolean;
  /** Whether it is ready within `ms`. */
  within(ms: number): Promise<boolean>;
  health(): Promise<ReadModelsHealth>;
}

/** What the routes may ask of the realtime gateway (`RealtimeLink`, `realtime/realtime-link.ts`). */
export interface RealtimeControl {
  /** Ends every socket of the user (account deletion). */
  disconnectUser(userId: string): void;
  /** Ends the sockets opened under this session (logout). */
  disconnectSession(sessionId: string): void;
}

/** The stores `GET /health` reports on. */
export type StoreName = 'events' | 'read' | 'accounts' | 'sessions' | 'images';

export interface StoreStatus {
  /** Where the store lives: `sqlite`, `files`, `eventstoredb` or `mongodb`. */
  readonly adapter: string;
  readonly reachable: boolean;
  /**
   * `false` for a store in DATA_DIR (`sqlite`, `files`) whose file system has no room for writes
   * (less than `MIN_FREE_BYTES` free): reads still work, every write fails. Absent otherwise.
   */
  readonly writable?: false;
}
