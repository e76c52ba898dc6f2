import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision } from './event-store';

export declare const EVENTS_SCHEMA: string;

export declare const SNAPSHOTS_SCHEMA: string;

/** An actor snapshot to keep, written in a group's transaction. */
export interface SnapshotRow {
  readonly streamId: string;
  readonly revision: number;
  readonly version: string;
  readonly payload: string;
}

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
  write(group: readonly EncodedAppend[], snapshots?: readonly SnapshotRow[]): Settled[];
}

/** A group as the message to the writer thread (flat arrays, cheap to clone). */
export interface PackedGroup {
  readonly streams: readonly string[];
  readonly expected: readonly ExpectedRevision[];
  readonly counts: readonly number[];
  /** id, type, data, metadata of every event, in order. */
  readonly fields: readonly string[];
}

export declare function packGroup(group: readonly EncodedAppend[]): PackedGroup;

export declare function unpackGroup(packed: PackedGroup): EncodedAppend[];

export declare function isEventIdConflict(error: unknown): boolean;
