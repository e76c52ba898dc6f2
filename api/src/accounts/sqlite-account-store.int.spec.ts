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
