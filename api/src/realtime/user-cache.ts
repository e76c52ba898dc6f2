import { deletedUser } from '@auction/contracts';
import type { PublicUser } from '@auction/contracts';
import type { UserDirectory } from '@auction/projections';

/** What the directory answers for an id it does not know: never kept, asked again next time. */
const isPlaceholder = (user: PublicUser): boolean =>
  user.firstName === 'Deleted' && user.lastName === 'user' && user.image === null;

/**
 * The public profiles the gateway joins into auction events. A public profile never changes while
 * the account lives, so the only invalidation is its deletion: `forget` makes the id read as
 * "Deleted user" from then on, also for a lookup already under way.
 */
export class UserCache {
  private readonly known = new Map<string, PublicUser>();
  private readonly erased = new Set<string>();

  constructor(
    private readonly directory: UserDirectory,
    private readonly capacity = 10_000,
  ) {}

  /** The profiles of `ids` if every one is known here; undefined when one must be looked up. */
  cached(ids: readonly string[]): Map<string, PublicUser> | undefined {
    const users = new Map<string, PublicUser>();
    for (const id of ids) {
      const user = this.erased.has(id) ? deletedUser(id) : this.known.get(id);
      if (!user) return undefined;
      users.set(id, user);
    }
    return users;
  }

  /** The profiles of `ids`, looking up (in one call) the ones not known here. */
  async load(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    const cached = this.cached(ids);
    if (cached) return cached;
    const had = new Map<string, PublicUser>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const user = this.known.get(id);
      if (user) had.set(id, user);
      else if (!this.erased.has(id)) missing.push(id);
    }
    const found = await this.directory.lookup(missing);
    const users = new Map<string, PublicUser>();
    for (const id of ids) {
      if (this.erased.has(id)) {
        users.set(id, deletedUser(id));
        continue;
      }
      const known = had.get(id);
      if (known) {
        users.set(id, known);
        continue;
      }
      const user = found.get(id) ?? deletedUser(id);
      users.set(id, user);
      if (!isPlaceholder(user)) this.remember(id, user);
    }
    return users;
  }

  /** The account is deleted: its profile is gone for good. */
  forget(id: string): void {
    this.erased.add(id);
    this.known.delete(id);
  }

  /** `users` with the accounts deleted since they were loaded read as "Deleted user". */
  current(users: ReadonlyMap<string, PublicUser>): ReadonlyMap<string, PublicUser> {
    if (![...users.keys()].some((id) => this.erased.has(id))) return users;
    return new Map(
      [...users].map(([id, user]) => [id, this.erased.has(id) ? deletedUser(id) : user]),
    );
  }

  private remember(id: string, user: PublicUser): void {
    this.known.delete(id);
    this.known.set(id, user);
    if (this.known.size > this.capacity) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
  }
}
