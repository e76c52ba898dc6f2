import { type PublicUser, deletedUser } from '@auction/contracts';
import type { CollectionSpec, ReadStore } from '../read-store/read-store';

/** Names and images are not in events: views join them from the account store by user id. */
export interface UserDirectory {
  /** Every requested id maps to a user; unknown and deleted users read as "Deleted user". */
  lookup(ids: readonly string[]): Promise<Map<string, PublicUser>>;
}

/**
 * The minimal account record a directory kept in the read store holds. The server's directory is
 * the API's account store; this one serves the tests that run the read side without one.
 */
export interface AccountRecord {
  readonly _id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly imageUrl: string | null;
}

export const accountsCollection: CollectionSpec = { name: 'accounts', indexes: [] };

/** Keeps account records in the read store's `accounts` collection. */
export class ReadStoreUserDirectory implements UserDirectory {
  constructor(private readonly store: ReadStore) {}

  async init(): Promise<void> {
    await this.store.ensureCollections([accountsCollection]);
  }

  async save(account: AccountRecord): Promise<void> {
    await this.store.upsert(accountsCollection.name, { ...account, _position: 0 });
  }

  /** Erases the personal data: the user then shows as "Deleted user". */
  async erase(id: string): Promise<void> {
    await this.store.remove(accountsCollection.name, id);
  }

  async lookup(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    const found = await this.store.getMany(accountsCollection.name, ids);
    const users = new Map<string, PublicUser>();
    for (const id of ids) {
      const doc = found.get(id) as (AccountRecord & { _position: number }) | undefined;
      users.set(
        id,
        doc
          ? {
              _id: id,
              firstName: doc.firstName,
              lastName: doc.lastName,
              image: doc.imageUrl ? { url: doc.imageUrl } : null,
            }
          : deletedUser(id),
      );
    }
    return users;
  }
}
