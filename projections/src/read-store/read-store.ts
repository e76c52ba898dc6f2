/**
 * The read store port: named collections of JSON documents, indexed by the top-level fields each
 * collection declares. Every adapter passes `contract.ts` and agrees with `query-semantics.ts`;
 * the rules of equality, `contains` and order are in projections/README.md, Query rules.
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
  /**
   * The indexes to build, each a list of fields from `indexes` (equality on the leading ones,
   * order by the next): as many as the queries need, since every one costs each write. Default:
   * one per field of `indexes`. Only speed depends on it; what a query answers never does.
   */
  readonly compoundIndexes?: readonly (readonly string[])[];
}

/** The indexes a collection builds: its compound ones, or one per indexed field. */
export const indexesOf = (spec: CollectionSpec): readonly (readonly string[])[] => {
  const compound = spec.compoundIndexes ?? spec.indexes.map((field) => [field]);
  for (const fields of compound) {
    const unknown = fields.find((field) => !spec.indexes.includes(field));
    if (fields.length === 0 || unknown !== undefined) {
      throw new Error(
        `Collection ${spec.name}: an index is made of its indexed fields, not ${unknown ?? 'none'}`,
      );
    }
  }
  return compound;
};

/** Equality, a case-insensitive substring (`contains`), or membership (`in`) on indexed fields. */
export type Condition =
  IndexValue | { readonly contains: string } | { readonly in: readonly IndexValue[] };
export type Where = Readonly<Record<string, Condition>>;

/**
 * A place in a find's order (keyset paging): the values of the `orderBy` fields, one each in
 * their order (null for a missing field), and the `_id` that breaks ties.
 */
export interface FindAfter {
  readonly values: readonly IndexValue[];
  readonly id: string;
}

export interface FindOptions {
  readonly where?: Where;
  /** Ordered by these indexed fields, then by `_id` ascending. */
  readonly orderBy?: readonly { readonly field: string; readonly direction: 'asc' | 'desc' }[];
  /**
   * Only the documents strictly after this place in the order (whether or not a document is
   * there): the next page after the last document of the previous one, which neither repeats nor
   * skips a document that stayed put, whatever was written meanwhile. `values` has one value per
   * `orderBy` field.
   */
  readonly after?: FindAfter;
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
   * Applies a projection's batch in order and moves its checkpoint to `position` (never
   * backwards). A `put` never replaces a document with a higher `_position`, so a replayed batch
   * changes nothing: without transactions a failed batch may land in part and is replayed from the
   * checkpoint, harmless as long as a projection's guard documents come last (`Projection.guards`).
   */
  commit(projection: string, writes: readonly Write[], position: number): Promise<void>;
  /** The last position a projection committed, or undefined before its first batch. */
  checkpoint(projection: string): Promise<number | undefined>;
  /**
   * Empties the collections and forgets the projection's checkpoint (for a rebuild). An
   * undeclared collection throws before anything changes. Never leaves a checkpoint over emptied
   * collections: SQLite does both in one transaction, MongoDB forgets the checkpoint first (a crash
   * then leaves documents that a rebuild from the start replays over harmlessly).
   */
  reset(projection: string, collections: readonly string[]): Promise<void>;
  /**
   * Optional: readies `collections`, empty and written by this store's one writer, for a load of
   * many documents (a rebuild or a lost read store caught up from the start): the store may stop
   * maintaining their secondary indexes and defer durability until `end`, which builds what was
   * deferred. Queries still answer the same meanwhile, only slower. Without it, a catch-up writes
   * as the live path does.
   */
  beginBulkLoad?(collections: readonly string[]): Promise<BulkLoad>;
  /** Writes a document outside any projection (state the API owns, e.g. notification cursors). */
  upsert(collection: string, doc: Doc): Promise<void>;
  /** Deletes a document outside any projection. */
  remove(collection: string, id: string): Promise<void>;
  /**
   * Takes or renews the lease `name` for `holder` for `ttlMs` from now, if nobody else holds it
   * unexpired; resolves to whether `holder` holds it. Atomic: at most one of any number of callers
   * gets it. Expiry is compared across nodes' clocks, so they must agree within a small fraction of
   * `ttlMs`. `reset` leaves leases alone.
   */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Frees the lease `name` at once if `holder` holds it; otherwise changes nothing. */
  releaseLease(name: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

/** A bulk load in progress (`ReadStore.beginBulkLoad`). */
export interface BulkLoad {
  /**
   * Builds what the load deferred (indexes, durability); called once, also after a failure.
   * `buildIndexes` false (a runner stopping) leaves the indexes to the next `ensureCollections`.
   */
  end(buildIndexes?: boolean): Promise<void>;
}

/**
 * Names that collections may not take: the stores keep their own tables under them (`rm_` plus the
 * name), beside the collections' `rm_<collection>`.
 */
export const reservedCollectionNames: readonly string[] = ['checkpoints', 'leases'];
