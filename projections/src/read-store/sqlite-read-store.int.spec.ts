import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeReadStoreContract } from './contract';
import { SqliteReadStore } from './sqlite-read-store';

describeReadStoreContract('SQLite file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-read-store-'));
  const filename = path.join(dir, 'read.db');
  let store = new SqliteReadStore({ filename });
  return Promise.resolve({
    store,
    reopen: async () => {
      await store.close();
      store = new SqliteReadStore({ filename });
      return store;
    },
    cleanup: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
});

describeReadStoreContract('SQLite in memory', () => {
  const store = new SqliteReadStore({ filename: ':memory:' });
  return Promise.resolve({ store, cleanup: () => store.close() });
});
