import type { CollectionSpec, Doc, FindOptions, ReadStore, Write } from '../read-store/read-store';
import type { FieldsOf, UnitOfWork } from './projection';
import { compareBy, matches } from '../read-store/query-semantics';

/**
 * One batch's writes, held in memory until the batch commits; reads see them first. Documents
 * read from the store are kept for the rest of the batch, so a hot document is read once.
 */
export class BatchUnitOfWork implements UnitOfWork {
  private readonly cache = new Map<string, Map<string, Doc | undefined>>();
  private readonly dirty = new Map<string, Map<string, Doc>>();
  private readonly touched = new Set<string>();
  private position = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly specs: ReadonlyMap<string, CollectionSpec>,
  ) {}

  /** Starts applying the event at `position`. */
  begin(position: number): void {
    this.position = position;
    this.touched.clear();
  }

  writes(): Write[] {
    const writes: Write[] = [];
    for (const [collection, docs] of this.dirty) {
      for (const doc of docs.values()) writes.push({ kind: 'put', collection, doc });
    }
    return writes;
  }

  async get<D extends Doc>(collection: string, id: string): Promise<D | undefined> {
    const cached = this.collectionCache(collection);
    if (cached.has(id)) return cached.get(id) as D | undefined;
    const doc = await this.store.get(collection, id);
    cached.set(id, doc);
    return doc as D | undefined;
  }

  async find<D extends Doc>(collection: string, options: FindOptions): Promise<D[]> {
    const dirty = this.dirty.get(collection);
    if (!dirty || dirty.size === 0) return (await this.store.find(collection, options)) as D[];
    const limit = options.limit === undefined ? undefined : options.limit + dirty.size;
    const stored = await this.store.find(collection, { ...options, limit });
    const merged = stored.filter((doc) => !dirty.has(doc._id));
    for (const doc of dirty.values()) if (matches(doc, options.where)) merged.push(doc);
    merged.sort(compareBy(options.orderBy ?? []));
    return (options.limit === undefined ? merged : merged.slice(0, options.limit)) as D[];
  }

  async update<D extends Doc>(
    collection: string,
    id: string,
    change: (current: D | undefined) => FieldsOf<D> | undefined,
  ): Promise<void> {
    if (!this.specs.has(collection)) throw new Error(`Collection ${collection} is not declared`);
    const current = await this.get<D>(collection, id);
    const key = `${collection}\u0000${id}`;
    if (current && current._position >= this.position && !this.touched.has(key)) return;
    const next = change(current);
    if (next === undefined) return;
    const { _id: _ignoredId, _position: _ignoredPosition, ...fields } = next as Partial<Doc>;
    const doc = { _id: id, _position: this.position, ...fields } as Doc;
    this.collectionCache(collection).set(id, doc);
    let docs = this.dirty.get(collection);
    if (!docs) this.dirty.set(collection, (docs = new Map<string, Doc>()));
    docs.set(id, doc);
    this.touched.add(key);
  }

  private collectionCache(collection: string): Map<string, Doc | undefined> {
    let cached = this.cache.get(collection);
    if (!cached) this.cache.set(collection, (cached = new Map<string, Doc | undefined>()));
    return cached;
  }
}
