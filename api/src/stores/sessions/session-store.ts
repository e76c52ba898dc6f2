import type session from 'express-session';

/**
 * Server-side sessions (an express-session `Store`, callback-based) that know whose each one is,
 * so every session of a user can be ended at once. Adapters: `SqliteSessionStore` and
 * `MongoSessionStore`, beside it; both pass `session-store.contract.ts`.
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
