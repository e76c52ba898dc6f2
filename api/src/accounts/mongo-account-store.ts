import { DomainError, type PublicUser, rejection, deletedUser } from '@auction/contracts';
import { type Collection, type MongoClient, MongoServerError } from 'mongodb';
import { type Account, type NewAccount, type Role, normaliseEmail, publicUser } from './account';
import type { AccountStore } from './account-store';

/** An account as stored: `_id` is the account id; `googleSubject` is absent until linked. */
interface AccountDoc {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The e-mail trimmed and case-folded: unique. */
  emailKey: string;
  role: Role;
  imageUrl: string | null;
  passwordHash: string | null;
  /** Absent (never null) when not linked, so the sparse unique index skips the document. */
  googleSubject?: string;
  createdAt: string;
}

const DUPLICATE_KEY = 11000;

const toAccount = (doc: AccountDoc): Account => ({
  id: doc._id,
  firstName: doc.firstName,
  lastName: doc.lastName,
  email: doc.email,
  role: doc.role,
  imageUrl: doc.imageUrl,
  passwordHash: doc.passwordHash,
  googleSubject: doc.googleSubject ?? null,
  createdAt: doc.createdAt,
});

const isDuplicateKey = (error: unknown): error is MongoServerError =>
  error instanceof MongoServerError && error.code === DUPLICATE_KEY;

/**
 * Accounts in the MongoDB collection `accounts`, one document per account. The normalised e-mail
 * has a unique index, so concurrent sign-ups for one address cannot both succeed; a linked Google
 * subject has a unique sparse index (sparse, not partial: FerretDB has no partial indexes, so the
 * field is left out rather than set to null). `erase` deletes the document.
 */
export class MongoAccountStore implements AccountStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly dbName: string,
    private readonly accounts: Collection<AccountDoc>,
  ) {}

  /** The store on `client` (not owned: `close` leaves it open), creating its indexes. */
  static async create(
    client: MongoClient,
    dbName: string,
    collectionName = 'accounts',
  ): Promise<MongoAccountStore> {
    const accounts = client.db(dbName).collection<AccountDoc>(collectionName);
    await accounts.createIndex({ emailKey: 1 }, { unique: true, name: 'emailKey_unique' });
    await accounts.createIndex(
      { googleSubject: 1 },
      { unique: true, sparse: true, name: 'googleSubject_unique' },
    );
    return new MongoAccountStore(client, dbName, accounts);
  }

  async create(account: NewAccount): Promise<Account> {
    const doc: AccountDoc = {
      _id: account.id,
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email.trim(),
      emailKey: normaliseEmail(account.email),
      role: 'User',
      imageUrl: account.imageUrl,
      passwordHash: account.passwordHash,
      ...(account.googleSubject === null ? {} : { googleSubject: account.googleSubject }),
      createdAt: account.createdAt,
    };
    try {
      await this.accounts.insertOne(doc);
    } catch (error) {
      if (isDuplicateKey(error) && !(await this.idCollision(error, account.id))) {
        throw new DomainError(rejection('EMAIL_TAKEN'));
      }
      throw error;
    }
    return toAccount(doc);
  }

  async byId(id: string): Promise<Account | undefined> {
    return this.one({ _id: id });
  }

  async byEmail(email: string): Promise<Account | undefined> {
    return this.one({ emailKey: normaliseEmail(email) });
  }

  async byGoogleSubject(subject: string): Promise<Account | undefined> {
    return this.one({ googleSubject: subject });
  }

  async linkGoogle(id: string, subject: string): Promise<void> {
    await this.accounts.updateOne({ _id: id }, { $set: { googleSubject: subject } });
  }

  async setRole(email: string, role: Role): Promise<boolean> {
    const result = await this.accounts.updateOne(
      { emailKey: normaliseEmail(email) },
      { $set: { role } },
    );
    return result.matchedCount > 0;
  }

  async erase(id: string): Promise<void> {
    await this.accounts.deleteOne({ _id: id });
  }

  async lookup(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, PublicUser>();
    if (unique.length > 0) {
      for (const doc of await this.accounts.find({ _id: { $in: unique } }).toArray()) {
        found.set(doc._id, publicUser(toAccount(doc)));
      }
    }
    return new Map(unique.map((id) => [id, found.get(id) ?? deletedUser(id)]));
  }

  async ping(): Promise<void> {
    await this.client.db(this.dbName).command({ ping: 1 });
  }

  /** The client belongs to whoever passed it in: nothing to release here. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private async one(filter: Partial<AccountDoc>): Promise<Account | undefined> {
    const doc = await this.accounts.findOne(filter);
    return doc ? toAccount(doc) : undefined;
  }

  /**
   * Whether a duplicate-key error is about the id rather than the e-mail or Google subject.
   * MongoDB names the index (`keyPattern`); FerretDB does not, so then the id is looked up.
   */
  private async idCollision(error: MongoServerError, id: string): Promise<boolean> {
    const keyPattern = (error as { keyPattern?: Record<string, unknown> }).keyPattern;
    if (keyPattern !== undefined) return '_id' in keyPattern;
    return (await this.accounts.countDocuments({ _id: id }, { limit: 1 })) > 0;
  }
}
