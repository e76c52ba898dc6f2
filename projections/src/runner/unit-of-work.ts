import type { CollectionSpec, Doc, FindOptions, ReadStore, Write } from '../read-store/read-store';
import type { FieldsOf, UnitOfWork } from './projection';
import { compareBy, isAfter, matches } from '../read-store/query-semantics';
import type { DocumentCache } from './document-cache';
import type { WrittenIds } from './written-ids';

const DONE: Promise<void> = Promise.resolve();

/** One collection's share of a batch. */
interface CollectionWork {
  readonly name: string;
  /** The documents to write, in the order first written: what reads see first. */
  readonly dirty: Map<string, Doc>;
  /** Documents read from the store in this batch (null: absent). */
  readonly stored: Map<string, Doc | null>;
}

/**
 * One batch's writes, held in memory until the batch commits; reads see them first. Documents
 * read from the store are kept for the rest of the batch, so a hot document is read once.
 */
export class BatchUnitOfWork implements UnitOfWork {
  private readonly work = new Map<string, CollectionWork>();
  /** The collections written, in the order first written. */
  private readonly writtenTo: CollectionWork[] = [];
  private position = 0;
  /**
   * The documents the event being applied has made so far: it may change them again, while a
   * document of the same position made by an earlier application (the same event delivered twice
   * in one batch) or read from the store has seen the event already.
   */
  private readonly madeNow: Doc[] = [];

  /**
   * `written`: given when the store held none of these collections' documents before a catch-up
   * began, and told of every document written since; a document it has never seen is absent
   * without asking the store.
   */
  constructor(
    private readonly store: ReadStore,
    private readonly specs: ReadonlyMap<string, CollectionSpec>,
    private readonly written?: WrittenIds,
    /** The documents earlier batches read or committed (see `DocumentCache`). */
    private readonly cache?: DocumentCache,
  ) {}

  /** Starts applying the event at `position`. */
  begin(position: number): void {
    this.position = position;
    this.madeNow.length = 0;
  }

  writes(): Write[] {
    const writes: Write[] = [];
    for (const { name, dirty } of this.writtenTo) {
      for (const doc of dirty.values()) writes.push({ kind: 'put', collection: name, doc });
    }
    return writes;
  }

  get<D extends Doc>(collection: string, id: string): Promise<D | undefined> {
    try {
      return Promise.resolve(this.read(this.of(collection), id) as D | undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async find<D extends Doc>(collection: string, options: FindOptions): Promise<D[]> {
    const dirty = this.work.get(collection)?.dirty;
    if (!dirty || dirty.size === 0) return (await this.store.find(collection, options)) as D[];
    const limit = options.limit === undefined ? undefined : options.limit + dirty.size;
    const stored = await this.store.find(collection, { ...options, limit });
    const merged = stored.filter((doc) => !dirty.has(doc._id));
    for (const doc of dirty.values()) {
      if (matches(doc, options.where) && isAfter(doc, options.orderBy ?? [], options.after))
        merged.push(doc);
    }
    merged.sort(compareBy(options.orderBy ?? []));
    return (options.limit === undefined ? merged : merged.slice(0, options.limit)) as D[];
  }

  /** Resolved at once, without a turn of its own, when the document is known without the store. */
  update<D extends Doc>(
    collection: string,
    id: string,
    change: (current: D | undefined) => FieldsOf<D> | undefined,
  ): Promise<void> {
    if (!this.specs.has(collection)) {
      return Promise.reject(new Error(`Collection ${collection} is not declared`));
    }
    try {
      const work = this.of(collection);
      const current = this.read(work, id);
      if (current instanceof Promise) {
        return current.then((doc) => this.change(work, id, doc as D | undefined, change));
      }
      this.change(work, id, current as D | undefined, change);
      return DONE;
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  put<D extends Doc>(collection: string, id: string, fields: FieldsOf<D>): void {
    if (!this.specs.has(collection)) throw new Error(`Collection ${collection} is not declared`);
    const work = this.of(collection);
    // What the batch, or an earlier one, knows of it already, without the store.
    const known =
      work.dirty.get(id) ?? work.stored.get(id) ?? this.cache?.get(collection, id) ?? undefined;
    this.change(work, id, known as D | undefined, () => fields);
  }

  private change<D extends Doc>(
    work: CollectionWork,
    id: string,
    current: D | undefined,
    change: (current: D | undefined) => FieldsOf<D> | undefined,
  ): void {
    if (current && current._position >= this.position && !this.madeNow.includes(current)) return;
    const next = change(current);
    if (next === undefined) return;
    // `next` may carry the `_id`/`_position` of the document it was made from: both are replaced,
    // and stay the first two keys.
    const doc = { _id: id, _position: this.position, ...next } as {
      -readonly [K in keyof Doc]: Doc[K];
    };
    doc._id = id;
    doc._position = this.position;
    if (work.dirty.size === 0) this.writtenTo.push(work);
    work.dirty.set(id, doc);
    this.madeNow.push(doc);
    this.written?.add(work.name, id);
  }

  /**
   * The document as the batch sees it: written or read in this batch, cached from an earlier one,
   * known absent, or read from the store once.
   */
  private read(work: CollectionWork, id: string): Doc | undefined | Promise<Doc | undefined> {
    const dirty = work.dirty.get(id);
    if (dirty !== undefined) return dirty;
    const stored = work.stored.get(id);
    if (stored !== undefined) return stored ?? undefined;
    const cached = this.cache?.get(work.name, id);
    if (cached !== undefined) {
      work.stored.set(id, cached);
      return cached ?? undefined;
    }
    // Absent for sure: not remembered, the filter answers again as fast.
    if (this.written && !this.written.mayHold(work.name, id)) return undefined;
    return this.store.get(work.name, id).then((doc) => {
      work.stored.set(id, doc ?? null);
      this.cache?.remember(work.name, id, doc ?? null);
      return doc;
    });
  }

  private of(collection: string): CollectionWork {
    let work = this.work.get(collection);
    if (!work) {
      work = { name: collection, dirty: new Map(), stored: new Map() };
      this.work.set(collection, work);
    }
    return work;
  }
}
