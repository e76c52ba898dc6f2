import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeAccountStoreContract } from './account-store.contract';
import { SqliteAccountStore } from './sqlite-account-store';

describeAccountStoreContract('SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
  const filename = join(dir, 'accounts.sqlite');
  let store = new SqliteAccountStore(filename);
  return Promise.resolve({
    store,
    reopen: async () => {
      await store.close();
      store = new SqliteAccountStore(filename);
      return store;
    },
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});

describe('SqliteAccountStore', () => {
  it('leaves no trace of an erased account in the database file or its write-ahead log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
    const filename = join(dir, 'accounts.sqlite');
    const store = new SqliteAccountStore(filename);
    try {
      const marker = 'erase-me-7f3a9c@example.com';
      await store.create({
        id: 'victim',
        firstName: 'Zebulon',
        lastName: 'Quixotic',
        email: marker,
        imageUrl: '/uploads/zebulon.png',
        passwordHash: 'scrypt$victim-hash',
        googleSubject: 'google-victim-subject',
        createdAt: '2025-01-01T00:00:00.000Z',
      });
      await store.create({
        id: 'keeper',
        firstName: 'Kept',
        lastName: 'Person',
        email: 'keeper@example.com',
        imageUrl: null,
        passwordHash: null,
        googleSubject: null,
        createdAt: '2025-01-01T00:00:00.000Z',
      });
      const files = () =>
        [filename, `${filename}-wal`]
          .filter((file) => existsSync(file))
          .map((file) => readFileSync(file).toString('latin1'))
          .join('');
      expect(files()).toContain(marker);

      await store.erase('victim');
      for (const secret of [marker, 'Zebulon', 'Quixotic', 'victim-hash', 'google-victim']) {
        expect(files()).not.toContain(secret);
      }
      expect(files()).toContain('keeper@example.com');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SqliteAccountStore keeps accounts read by id in memory', () => {
  const account = (id: string, email: string) => ({
    id,
    firstName: 'Cached',
    lastName: 'Person',
    email,
    imageUrl: null,
    passwordHash: null,
    googleSubject: null,
    createdAt: '2025-01-01T00:00:00.000Z',
  });

  it('never serves a copy older than a change made here or by another connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
    const filename = join(dir, 'accounts.sqlite');
    const server = new SqliteAccountStore(filename);
    // Another process on the same file, as the CLI that grants roles is.
    const cli = new SqliteAccountStore(filename);
    try {
      await server.create(account('a', 'a@example.com'));
      await server.create(account('b', 'b@example.com'));
      expect((await server.byId('a'))?.role).toBe('User');
      expect((await server.lookup(['b'])).get('b')?.firstName).toBe('Cached');

      expect(await cli.setRole('a@example.com', 'Admin')).toBe(true);
      expect((await server.byId('a'))?.role).toBe('Admin');

      await server.setRole('a@example.com', 'Auditor');
      expect((await server.byId('a'))?.role).toBe('Auditor');

      await server.linkGoogle('b', 'subject-b');
      expect((await server.byId('b'))?.googleSubject).toBe('subject-b');

      await cli.erase('b');
      expect(await server.byId('b')).toBeUndefined();
      expect((await server.lookup(['b'])).get('b')?.firstName).not.toBe('Cached');

      await server.erase('a');
      expect(await server.byId('a')).toBeUndefined();
      expect(await cli.byId('a')).toBeUndefined();
    } finally {
      await cli.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SqliteAccountStore.byIdNow', () => {
  it('answers synchronously what byId answers, through changes here and by another connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
    const filename = join(dir, 'accounts.sqlite');
    const server = new SqliteAccountStore(filename);
    const cli = new SqliteAccountStore(filename);
    const same = async (id: string) => {
      const now = server.byIdNow(id);
      expect(now).toEqual(await server.byId(id));
      return now;
    };
    try {
      const created = await server.create({
        id: 'a',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'a@example.com',
        imageUrl: null,
        passwordHash: null,
        googleSubject: null,
        createdAt: '2025-01-01T00:00:00.000Z',
      });
      expect(await same('a')).toEqual(created);
      expect(await same('nobody')).toBeUndefined();
      expect(await cli.setRole('a@example.com', 'Admin')).toBe(true);
      expect((await same('a'))?.role).toBe('Admin');
      await cli.erase('a');
      expect(await same('a')).toBeUndefined();
    } finally {
      await cli.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
