import type { Readable } from 'node:stream';
import type { ProjectionStatus } from '@auction/projections';
import type { RequestHandler } from 'express';
import type { Store } from 'express-rate-limit';
import type session from 'express-session';

/*
 * The ports `AppDeps` hands the routes and the gateway: what they may ask of the stores, the read
 * models' readiness and the realtime link. The adapters live beside the routes (`http/`,
 * `realtime/`) and import these; `AppDeps` imports nothing from there.
 */

/**
 * Server-side sessions (an express-session `Store`, callback-based) that know whose each one is,
 * so every session of a user can be ended at once. Adapters: `SqliteSessionStore` and
 * `MongoSessionStore` (`http/`); both pass `http/session-store.contract.ts`.
 */
export interface UserSessionStore extends session.Store {
  /** Ends every session of a user; resolves to how many there were. */
  destroyUser(userId: string): Promise<number>;
  /** How many unexpired sessions the user has. */
  countForUser(userId: string): Promise<number>;
  /** Resolves when the store answers (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** How `ImageStore.save` reads its source. */
export interface SaveOptions {
  /** Longer sources are refused (`PAYLOAD_TOO_LARGE`); default `MAX_IMAGE_BYTES`. */
  readonly maxBytes?: number;
}

/**
 * Where uploaded images live. Adapters: `FileImageStore` (DATA_DIR/uploads) and
 * `GridFsImageStore` (MongoDB, no shared volume between nodes); both pass `http/image-store.contract.ts`.
 */
export interface ImageStore {
  /**
   * Stores the bytes, streamed from `source` as they come, if they are a JPEG, PNG, WebP or GIF
   * (DomainError UNSUPPORTED_MEDIA_TYPE otherwise, PAYLOAD_TOO_LARGE past `maxBytes`; nothing is
   * left stored then, nor when the source fails); returns its URL under /uploads/. The image is
   * served and listed only once whole.
   */
  save(source: Buffer | Readable, options?: SaveOptions): Promise<string>;
  /** Deletes an image this store saved; anything else is ignored. */
  remove(url: string | null | undefined): Promise<void>;
  /**
   * Express handler mounted at /uploads: serves a stored image with its content type,
   * `Cache-Control: public, max-age=31536000, immutable` and `nosniff`; 404 for any other name.
   * Requests other than GET and HEAD go to `next`.
   */
  readonly serve: RequestHandler;
  /** The URLs of every stored image, sorted (for tests and checks, not for requests). */
  list(): Promise<string[]>;
  /** Resolves when the store answers (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where each limiter keeps its counters, by a prefix naming the limiter (`signup`, `login`, ...):
 * a `Store` of its own per limiter (express-rate-limit refuses one store for two limiters), or
 * undefined for the library's in-process `MemoryStore`. Adapters: `inProcessRateLimits` and
 * `mongoRateLimitStores` (counters shared by every node); both pass `http/rate-limit-store.contract.ts`.
 */
export type RateLimitStores = (prefix: string) => Store | undefined;

/** What `GET /health` says about the read models while they catch up. */
export interface ReadModelsHealth {
  readonly ready: boolean;
  /** The log's last position when the server started: ready once every read model reached it. */
  readonly startHead: number;
  /** Why the read models could not start, if they could not. */
  readonly error?: string;
  readonly projections: readonly ProjectionStatus[];
}

/** Whether the read models caught up with the log as it stood at start (`Readiness`, `http/readiness.ts`). */
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
