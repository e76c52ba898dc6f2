import type { RecordedEvent } from '@auction/contracts';
import type { CollectionSpec, Doc, FindOptions } from '../read-store/read-store';

export type { RecordedEvent };

/** A document's own fields: what `update` expects back (no index signature, no `_id`/`_position`). */
export type FieldsOf<D extends Doc> = {
  [K in keyof D as string extends K ? never : K extends '_id' | '_position' ? never : K]: D[K];
};

/**
 * What a handler sees while it applies one event: reads see earlier writes of the same batch.
 * `update` is the idempotency guard: it calls `change` only when the document has not yet seen
 * this event, and stamps the result with the event's position.
 */
export interface UnitOfWork {
  get<D extends Doc>(collection: string, id: string): Promise<D | undefined>;
  find<D extends Doc>(collection: string, options: FindOptions): Promise<D[]>;
  /**
   * `change(current)` returns the new document (without `_id`/`_position`), or `undefined` to leave
   * it as it is. Skipped when the document already holds this event's position or a later one.
   */
  update<D extends Doc>(
    collection: string,
    id: string,
    change: (current: D | undefined) => FieldsOf<D> | undefined,
  ): Promise<void>;
  /**
   * Sets a document this event determines whole (one named after the event's own ids: a bid's
   * entry, a notice) without reading it: most such documents are new, and a read of a missing
   * one costs a lookup. The skip of `update` is left to the read store, which never replaces a
   * document with a higher `_position`; so only for documents no later event needs to find as
   * this one left them but through a read (no counters).
   */
  put<D extends Doc>(collection: string, id: string, fields: FieldsOf<D>): void;
}

export interface Projection {
  /** Stable name: the checkpoint key and the `projections rebuild <name>` argument. */
  readonly name: string;
  /** Every collection it writes; a rebuild empties them all. */
  readonly collections: readonly CollectionSpec[];
  /**
   * Collections whose documents tell `handle` that an event was already applied, when it derives
   * other documents from the state before the event (and so must not apply it twice). A batch
   * writes them last: a store that cannot commit a batch atomically (MongoDB without a replica
   * set, FerretDB) and is cut off mid-commit then never holds such a document ahead of what was
   * derived with it, and the replay from the checkpoint derives the missing documents again.
   */
  readonly guards?: readonly string[];
  /** Applies one event; must be deterministic (same events, same documents). */
  handle(event: RecordedEvent, uow: UnitOfWork): Promise<void>;
}
