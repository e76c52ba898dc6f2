import type { Clock, CommandBus, EventStore } from '@auction/engine';
import type { ProjectionRunner, ReadStore } from '@auction/projections';
import type { SqliteAccountStore } from './accounts/sqlite-account-store';
import type { Config } from './config';
import type { SqliteSessionStore } from './http/session-store';
import type { ImageStore } from './http/uploads';
import type { RealtimeLink } from './realtime/realtime-link';

/** Everything the HTTP app needs, built once by `startServer` (and by tests, the same way). */
export interface AppDeps {
  readonly config: Config;
  /** The origin browsers use to reach the app, e.g. `http://localhost:3000`. */
  readonly origin: string;
  readonly events: EventStore;
  readonly read: ReadStore;
  readonly bus: CommandBus;
  readonly runner: ProjectionRunner;
  readonly accounts: SqliteAccountStore;
  readonly sessions: SqliteSessionStore;
  readonly images: ImageStore;
  readonly clock: Clock;
  /** Lets routes end sockets (logout, account deletion). */
  readonly realtime: RealtimeLink;
  readonly log: (message: string, error?: unknown) => void;
}
