import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision } from './event-store';

export declare const EVENTS_SCHEMA: string;

export declare function configureLogConnection(db: Database.Database, busyTimeoutMs: number): void;

/** An event as the log stores it: data and metadata already JSON. */
export interface EncodedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

export interface EncodedAppend {
  readonly streamId: string;
  readonly events: readonly EncodedEvent[];
  readonly expected: ExpectedRevision;
}

export type AppendConflict =
  | {
      readonly kind: 'wrong-revision';
      readonly streamId: string;
      readonly expected: ExpectedRevision;
      readonly actual: number | 'no_stream';
    }
  | { readonly kind: 'duplicate-id'; readonly eventId: string };

export type Settled =
  | { readonly ok: true; readonly result: AppendResult }
  | { readonly ok: false; readonly conflict: AppendConflict };

export declare class SqliteLogWriter {
  constructor(db: Database.Database);
  /** One transaction for the whole group; throws when it cannot commit (nothing written). */
  write(group: readonly EncodedAppend[]): Settled[];
}

export declare function isEventIdConflict(error: unknown): boolean;
