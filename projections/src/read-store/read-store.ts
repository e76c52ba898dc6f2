/**
 * The read store port: named collections of JSON documents. Each collection declares the
 * top-level fields it is queried by; adapters index those (SQLite columns, MongoDB indexes).
 * Every adapter passes the shared contract suite in `contract.ts`.
 */

export type IndexValue = string | number | boolean | null;

/** A stored document. `_position` is the global position of the last event applied to it. */
export interface Doc {
  readonly _id: string;
  readonly _position: number;
  readonly [field: string]: unknown;
}

export interface CollectionSpec {
  readonly name: string;
  /** Top-level fields with index values that queries filter or order by. */
  readonly indexes: readonly string[];
}

/** Equality, a case-insensitive substring (`contains`), or membership (`in`) on indexed fields. */
export type Condition =
  IndexValue | { readonly contains: string } | { readonly in: readonly IndexValue[] };
export type Where = Readonly<Record<string, Condition>>;

export interface FindOptions {
  readonly where?: Where;
  /** Ordered by these indexed fields, then by `_id` ascending. */
  readonly orderBy?: readonly { readonly field: string; readonly direction: 'asc' | 'desc' }[];
  readonly limit?: number;
}

export type Write =
  | { readonly kind: 'put'; readonly collection: string; readonly doc: Doc }
  | { readonly kind: 'delete'; readonly collection: string; readonly id: string };

export interface ReadStore {
  /** Creates the collections and their indexes if missing. */
  ensureCollections(specs: readonly CollectionSpec[]): Promise<void>;
  get(collection: string, id: string): Promise<Doc | undefined>;
  getMany(collection: string, ids: readonly string[]): Promise<Map<string, Doc>>;
  find(collection: string, options?: FindOptions): Promise<Doc[]>;
  count(collection: string, where?: Where): Promise<number>;
  /**
   * Applies a projection's batch and moves its checkpoint to `position`. A `put` never replaces a
   * document whose `_position` is higher than its own. SQLite commits writes and checkpoint in one
   * transaction; MongoDB relies on the `_position` guard, so a replayed batch is a no-op.
   */
  commit(projection: string, writes: readonly Write[], position: number): Promise<void>;
  /** The last position a projection committed, or undefined before its first batch. */
  checkpoint(projection: string): Promise<number | undefined>;
  /** Empties the collections and forgets the projection's checkpoint (for a rebuild). */
  reset(projection: string, collections: readonly string[]): Promise<void>;
  /** Writes a document outside any projection (state the API owns, e.g. notification cursors). */
  upsert(collection: string, doc: Doc): Promise<void>;
  /** Deletes a document outside any projection. */
  remove(collection: string, id: string): Promise<void>;
  close(): Promise<void>;
}
