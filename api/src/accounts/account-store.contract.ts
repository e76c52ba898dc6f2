import { randomUUID } from 'node:crypto';
import { DomainError } from '@auction/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAccount } from './account';
import type { AccountStore } from './account-store';

/** What the contract suite needs from an adapter under test. */
export interface AccountStoreContractSubject {
  readonly store: AccountStore;
  /** Closes the store and opens it again on the same data. */
  readonly reopen: () => Promise<AccountStore>;
  /** Closes whichever store is open and removes its data. */
  readonly cleanup: () => Promise<void>;
}

const emailTaken = (error: unknown): boolean =>
  error instanceof DomainError && error.code === 'EMAIL_TAKEN';

/**
 * The one suite every account store adapter passes. Each test opens a fresh subject; e-mails and
 * ids carry a random suffix, so the suite also runs against a shared server.
 */
export function describeAccountStoreContract(
  name: string,
  open: () => Promise<AccountStoreContractSubject>,
): void {
  describe(`account store contract: ${name}`, () => {
    let subject: AccountStoreContractSubject;
    let store: AccountStore;
    let run: string;

    const email = (local: string): string => `${local}.${run}@example.com`;
    const newAccount = (fields: Partial<NewAccount> = {}): NewAccount => ({
      id: randomUUID(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: email('ada'),
      imageUrl: null,
      passwordHash: 'scrypt$hash',
      googleSubject: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      ...fields,
    });

    beforeEach(async () => {
      run = randomUUID().slice(0, 8);
      subject = await open();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    it('creates an account with the User role and reads it back by id and by e-mail', async () => {
      const input = newAccount({ email: `  Ada.${run}@Example.COM `, imageUrl: '/uploads/a.png' });
      const created = await store.create(input);
      const expected = {
        id: input.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: `Ada.${run}@Example.COM`,
        role: 'User',
        imageUrl: '/uploads/a.png',
        passwordHash: 'scrypt$hash',
        googleSubject: null,
        createdAt: '2025-01-01T00:00:00.000Z',
      };
      expect(created).toEqual(expected);
      expect(await store.byId(input.id)).toEqual(expected);
      expect(await store.byEmail(`ada.${run}@example.com`)).toEqual(expected);
      expect(await store.byEmail(`\tADA.${run}@EXAMPLE.com  `)).toEqual(expected);
      expect(await store.byId(randomUUID())).toBeUndefined();
      expect(await store.byEmail(email('nobody'))).toBeUndefined();
    });

    it('keeps accounts across reopening', async () => {
      const input = newAccount();
      await store.create(input);
      store = await subject.reopen();
      expect((await store.byEmail(input.email))?.id).toBe(input.id);
    });

    it('refuses a second account for the same e-mail, whatever its case and spaces', async () => {
      const first = await store.create(newAccount());
      const again = store.create(newAccount({ email: ` ADA.${run}@example.com`, firstName: 'B' }));
      await expect(again).rejects.toSatisfy(emailTaken);
      expect(await store.byEmail(first.email)).toEqual(first);
    });

    it('lets exactly one of 20 concurrent sign-ups for one address win', async () => {
      const attempts = Array.from({ length: 20 }, (_, i) =>
        newAccount({ firstName: `Racer${i}`, email: i % 2 ? email('race') : email('RACE') }),
      );
      const results = await Promise.allSettled(attempts.map((a) => store.create(a)));
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const refused = results.flatMap((r) =>
        r.status === 'rejected' ? [r.reason as unknown] : [],
      );
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(19);
      expect(refused.every(emailTaken)).toBe(true);
      expect(await store.byEmail(email('race'))).toEqual(won[0]);
      const ids = attempts.map((a) => a.id);
      const found = await Promise.all(ids.map((id) => store.byId(id)));
      expect(found.filter(Boolean)).toEqual(won);
    });

    it('keeps many accounts without a Google subject apart from each other', async () => {
      const made = await Promise.all(
        ['a', 'b', 'c'].map((local) => store.create(newAccount({ email: email(local) }))),
      );
      for (const account of made) expect(await store.byId(account.id)).toEqual(account);
    });

    it('finds an account by its Google subject, which belongs to one account only', async () => {
      const sub = `google-${run}`;
      const created = await store.create(newAccount({ googleSubject: sub, passwordHash: null }));
      expect(created.googleSubject).toBe(sub);
      expect(await store.byGoogleSubject(sub)).toEqual(created);
      expect(await store.byGoogleSubject(`other-${run}`)).toBeUndefined();
      await expect(
        store.create(newAccount({ email: email('other'), googleSubject: sub })),
      ).rejects.toSatisfy(emailTaken);
    });

    it('links a Google subject to an existing account, and not to a second one', async () => {
      const ada = await store.create(newAccount());
      const bob = await store.create(newAccount({ email: email('bob'), firstName: 'Bob' }));
      const sub = `google-${run}`;
      await store.linkGoogle(ada.id, sub);
      expect(await store.byGoogleSubject(sub)).toEqual({ ...ada, googleSubject: sub });
      expect((await store.byId(ada.id))?.googleSubject).toBe(sub);

      await expect(store.linkGoogle(bob.id, sub)).rejects.toThrow();
      expect((await store.byId(bob.id))?.googleSubject).toBeNull();
      expect((await store.byGoogleSubject(sub))?.id).toBe(ada.id);
    });

    it('sets a role by e-mail, and says when no account has it', async () => {
      const ada = await store.create(newAccount());
      expect(await store.setRole(` ADA.${run}@example.com`, 'Auditor')).toBe(true);
      expect((await store.byId(ada.id))?.role).toBe('Auditor');
      expect(await store.setRole(ada.email, 'Admin')).toBe(true);
      expect((await store.byEmail(ada.email))?.role).toBe('Admin');
      expect(await store.setRole(email('nobody'), 'Admin')).toBe(false);
    });

    it('joins public users by id; unknown ids read as "Deleted user"', async () => {
      const ada = await store.create(newAccount({ imageUrl: '/uploads/ada.png' }));
      const bob = await store.create(newAccount({ email: email('bob'), firstName: 'Bob' }));
      const ghost = randomUUID();
      const users = await store.lookup([ada.id, ghost, bob.id, ada.id]);
      expect([...users.keys()].sort()).toEqual([ada.id, bob.id, ghost].sort());
      expect(users.get(ada.id)).toEqual({
        _id: ada.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        image: { url: '/uploads/ada.png' },
      });
      expect(users.get(bob.id)).toEqual({
        _id: bob.id,
        firstName: 'Bob',
        lastName: 'Lovelace',
        image: null,
      });
      expect(users.get(ghost)).toEqual({
        _id: ghost,
        firstName: 'Deleted',
        lastName: 'user',
        image: null,
      });
      expect((await store.lookup([])).size).toBe(0);
    });

    it('erases an account completely: every lookup misses and the e-mail is free again', async () => {
      const sub = `google-${run}`;
      const ada = await store.create(newAccount({ googleSubject: sub }));
      const bob = await store.create(newAccount({ email: email('bob') }));
      await store.erase(ada.id);

      expect(await store.byId(ada.id)).toBeUndefined();
      expect(await store.byEmail(ada.email)).toBeUndefined();
      expect(await store.byGoogleSubject(sub)).toBeUndefined();
      expect((await store.lookup([ada.id])).get(ada.id)).toEqual({
        _id: ada.id,
        firstName: 'Deleted',
        lastName: 'user',
        image: null,
      });
      expect(await store.setRole(ada.email, 'Admin')).toBe(false);
      expect(await store.byId(bob.id)).toEqual(bob);

      store = await subject.reopen();
      expect(await store.byId(ada.id)).toBeUndefined();
      const again = await store.create(newAccount({ googleSubject: sub }));
      expect(await store.byEmail(ada.email)).toEqual(again);
      await store.erase(randomUUID());
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
