/** An actor's snapshot as a store keeps it: the stream's revision it folds up to, and its text. */
export interface StoredSnapshot {
  /** Revision of the stream's last event folded into it. */
  readonly revision: number;
  /** The code that wrote it (`SNAPSHOT_VERSION`): a snapshot of another version is ignored. */
  readonly version: string;
  readonly payload: string;
}

/**
 * Where actors keep their snapshots (the SQLite event store keeps them in its own file). A
 * snapshot is only ever a shortcut: losing one, or finding it stale, costs a longer read.
 */
export interface SnapshotStore {
  loadSnapshot(streamId: string): Promise<StoredSnapshot | undefined>;
  /** Keeps it unless the store already holds a later one of the same version. */
  saveSnapshot(streamId: string, snapshot: StoredSnapshot): Promise<void>;
}

export const isSnapshotStore = (value: unknown): value is SnapshotStore =>
  typeof (value as Partial<SnapshotStore> | undefined)?.loadSnapshot === 'function' &&
  typeof (value as Partial<SnapshotStore> | undefined)?.saveSnapshot === 'function';
