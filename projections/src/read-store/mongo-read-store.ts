import { MongoBulkWriteError, MongoClient } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Db, Document, Filter, WriteError } from 'mongodb';
import type {
  CollectionSpec,
  Condition,
  Doc,
  FindOptions,
  ReadStore,
  Where,
  Write,
} from './read-store';

interface StoredDoc extends Document {
  _id: string;
  _position: number;
}

interface Checkpoint {
  _id: string;
  position: number;
}

interface Plan {
  deleteFirst: boolean;
  put?: Doc;
}

const DUPLICATE_KEY = 11000;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const checkName = (name: string): string => {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
  return name;
};
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const guardedReplace = (doc: Doc): AnyBulkWriteOperation<StoredDoc> => {
  const { _id, ...replacement } = doc;
  return {
    replaceOne: { filter: { _id, _position: { $lte: doc._position } }, replacement, upsert: true },
  };
};

const refusedByGuard = (error: unknown): Set<number> | undefined => {
  if (!(error instanceof MongoBulkWriteError) || error.result.getWriteConcernError()) return;
  const writeErrors = ([] as WriteError[]).concat(error.writeErrors);
  if (writeErrors.length === 0 || writeErrors.some(({ code }) => code !== DUPLICATE_KEY)) return;
  return new Set(writeErrors.map(({ index }) => index));
};

/**
 * The distributed read store: one MongoDB collection per read-store collection (`rm_<name>`),
 * documents stored as they are, an index per declared field, checkpoints in `rm_checkpoints`.
 * A batch and its checkpoint are not atomic: a put replaces only a document whose `_position` is
 * not higher, so a batch replayed after a crash changes nothing. Queries order by fields holding
 * one type besides null, since MongoDB orders booleans after strings and SQLite before numbers.
 */
export class MongoReadStore implements ReadStore {
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly checkpoints: Collection<Checkpoint>;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.checkpoints = db.collection<Checkpoint>('rm_checkpoints');
  }

  /** Connects to the server at `url` and keeps the read models in the database `dbName`. */
  static async connect(url: string, dbName: string): Promise<MongoReadStore> {
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoReadStore(client, client.db(dbName));
  }

  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const collection = this.db.collection(`rm_${checkName(spec.name)}`);
      for (const field of spec.indexes) await collection.createIndex({ [checkName(field)]: 1 });
      this.specs.set(spec.name, spec);
    }
  }

  async get(collection: string, id: string): Promise<Doc | undefined> {
    return (await this.collection(collection).findOne({ _id: id })) ?? undefined;
  }

  async getMany(collection: string, ids: readonly string[]): Promise<Map<string, Doc>> {
    const docs = await this.collection(collection)
      .find({ _id: { $in: [...new Set(ids)] } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  async find(collection: string, options: FindOptions = {}): Promise<Doc[]> {
    const filter = this.filter(collection, options.where);
    const sort: Record<string, 1 | -1> = {};
    for (const { field, direction } of options.orderBy ?? []) {
      sort[this.indexed(collection, field)] = direction === 'asc' ? 1 : -1;
    }
    sort._id ??= 1;
    // MongoDB reads a limit of 0 as no limit at all.
    if (options.limit === 0) return [];
    const cursor = this.collection(collection).find(filter, { sort });
    if (options.limit !== undefined) cursor.limit(options.limit);
    return cursor.toArray();
  }

  async count(collection: string, where?: Where): Promise<number> {
    return this.collection(collection).countDocuments(this.filter(collection, where));
  }

  async commit(projection: string, writes: readonly Write[], position: number): Promise<void> {
    const plans = new Map<string, Map<string, Plan>>();
    for (const write of writes) {
      this.spec(write.collection);
      let byId = plans.get(write.collection);
      if (!byId) plans.set(write.collection, (byId = new Map<string, Plan>()));
      if (write.kind === 'delete') {
        byId.set(write.id, { deleteFirst: true });
      } else {
        const plan = byId.get(write.doc._id) ?? { deleteFirst: false };
        if (!plan.put || plan.put._position <= write.doc._position) plan.put = write.doc;
        byId.set(write.doc._id, plan);
      }
    }
    for (const [collection, byId] of plans) {
      const deletes = [...byId]
        .filter(([, plan]) => plan.deleteFirst)
        .map(([_id]): AnyBulkWriteOperation<StoredDoc> => ({ deleteOne: { filter: { _id } } }));
      if (deletes.length > 0) {
        await this.collection(collection).bulkWrite(deletes, { ordered: false });
      }
      await this.putAll(
        collection,
        [...byId.values()].flatMap(({ put }) => (put ? [put] : [])),
      );
    }
    await this.checkpoints.updateOne({ _id: projection }, { $max: { position } }, { upsert: true });
  }

  async checkpoint(projection: string): Promise<number | undefined> {
    return (await this.checkpoints.findOne({ _id: projection }))?.position;
  }

  async reset(projection: string, collections: readonly string[]): Promise<void> {
    for (const collection of collections) await this.collection(collection).deleteMany({});
    await this.checkpoints.deleteOne({ _id: projection });
  }

  async upsert(collection: string, doc: Doc): Promise<void> {
    const { _id, ...replacement } = doc;
    await this.collection(collection).replaceOne({ _id }, replacement, { upsert: true });
  }

  async remove(collection: string, id: string): Promise<void> {
    await this.collection(collection).deleteOne({ _id: id });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async putAll(collection: string, docs: readonly Doc[]): Promise<void> {
    let pending = docs.map((doc) => ({ doc, refused: false }));
    while (pending.length > 0) {
      try {
        await this.collection(collection).bulkWrite(
          pending.map(({ doc }) => guardedReplace(doc)),
          { ordered: false },
        );
        return;
      } catch (error) {
        const refused = refusedByGuard(error);
        if (!refused) throw error;
        // Once more for a put that lost an insert race; the driver may have skipped the others.
        pending = pending.flatMap((put, index) =>
          !refused.has(index) ? [put] : put.refused ? [] : [{ doc: put.doc, refused: true }],
        );
      }
    }
  }

  private filter(collection: string, where: Where | undefined): Filter<StoredDoc> {
    const filter: Record<string, unknown> = {};
    for (const [field, condition] of Object.entries(where ?? {})) {
      const key = this.indexed(collection, field);
      const c: Condition = condition;
      if (typeof c === 'object' && c !== null) {
        filter[key] =
          'contains' in c ? { $regex: literal(c.contains), $options: 'i' } : { $in: [...c.in] };
      } else {
        filter[key] = c;
      }
    }
    return filter;
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`Collection ${collection} is not declared (ensureCollections)`);
    return spec;
  }

  private collection(name: string): Collection<StoredDoc> {
    this.spec(name);
    return this.db.collection<StoredDoc>(`rm_${checkName(name)}`);
  }

  private indexed(collection: string, field: string): string {
    if (field === '_id') return field;
    if (!this.spec(collection).indexes.includes(field)) {
      throw new Error(`${collection}.${field} is not an indexed field`);
    }
    return field;
  }
}
