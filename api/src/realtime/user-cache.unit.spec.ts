import { deletedUser } from '@auction/contracts';
import type { PublicUser } from '@auction/contracts';
import type { UserDirectory } from '@auction/projections';
import { describe, expect, it } from 'vitest';
import { UserCache } from './user-cache';

const ada: PublicUser = { _id: 'ada', firstName: 'Ada', lastName: 'Lovelace', image: null };
const bob: PublicUser = { _id: 'bob', firstName: 'Bob', lastName: 'Baker', image: { url: '/b' } };

/** A directory that knows Ada and Bob, counts the ids it is asked, and answers when released. */
const directory = () => {
  const asked: string[] = [];
  let release: () => void = () => undefined;
  let held = false;
  const users: UserDirectory = {
    lookup: async (ids) => {
      asked.push(...ids);
      if (held) await new Promise<void>((resolve) => (release = resolve));
      const known = new Map([ada, bob].map((u) => [u._id, u]));
      return new Map(ids.map((id) => [id, known.get(id) ?? deletedUser(id)]));
    },
  };
  return { users, asked, hold: () => (held = true), release: () => release() };
};

describe('UserCache', () => {
  it('asks the directory once per known user, and again for an unknown one', async () => {
    const d = directory();
    const cache = new UserCache(d.users);
    expect(cache.cached(['ada'])).toBeUndefined();
    expect(await cache.load(['ada', 'ghost'])).toEqual(
      new Map([
        ['ada', ada],
        ['ghost', deletedUser('ghost')],
      ]),
    );
    expect(cache.cached(['ada'])).toEqual(new Map([['ada', ada]]));
    expect(cache.cached(['ada', 'ghost'])).toBeUndefined();
    await cache.load(['ada', 'ghost']);
    expect(d.asked).toEqual(['ada', 'ghost', 'ghost']);
  });

  it('reads a deleted account as Deleted user, also when its lookup began before the deletion', async () => {
    const d = directory();
    const cache = new UserCache(d.users);
    await cache.load(['bob']);
    d.hold();
    const pending = cache.load(['ada']);
    cache.forget('ada');
    cache.forget('bob');
    d.release();
    expect(await pending).toEqual(new Map([['ada', deletedUser('ada')]]));
    expect(cache.cached(['ada', 'bob'])).toEqual(
      new Map([
        ['ada', deletedUser('ada')],
        ['bob', deletedUser('bob')],
      ]),
    );
    expect(cache.current(new Map([['bob', bob]]))).toEqual(new Map([['bob', deletedUser('bob')]]));
  });

  it('keeps at most its capacity, dropping the oldest first', async () => {
    const d = directory();
    const cache = new UserCache(d.users, 1);
    await cache.load(['ada']);
    await cache.load(['bob']);
    expect(cache.cached(['bob'])).toEqual(new Map([['bob', bob]]));
    expect(cache.cached(['ada'])).toBeUndefined();
  });
});
