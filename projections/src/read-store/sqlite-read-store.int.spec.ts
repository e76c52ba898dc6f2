import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe('SQLite read store layout', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-read-layout-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const spec = { name: 'items', indexes: ['seller', 'rank'] };

  it("keeps a projection document's _id and _position only in their columns", async () => {
    const filename = path.join(dir, 'read.db');
    const store = new SqliteReadStore({ filename });
    await store.ensureCollections([spec]);
    const doc = { _id: 'a', _position: 3, seller: 's1', rank: 2 };
    await store.commit('p', [{ kind: 'put', collection: 'items', doc }], 3);
    await store.close();
    const db = new Database(filename, { readonly: true });
    const row = db.prepare('SELECT id, position, doc FROM rm_items').get();
    db.close();
    expect(row).toEqual({ id: 'a', position: 3, doc: '"seller":"s1","rank":2}' });
    const reopened = new SqliteReadStore({ filename });
    await reopened.ensureCollections([spec]);
    expect(JSON.stringify(await reopened.get('items', 'a'))).toBe(JSON.stringify(doc));
    await reopened.close();
  });

  it('reads and replaces rows an earlier version stored as whole JSON documents', async () => {
    const filename = path.join(dir, 'read.db');
    const db = new Database(filename);
    db.exec(
      `CREATE TABLE rm_items (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL, "ix_seller");
       CREATE INDEX "rm_items(seller)" ON rm_items ("ix_seller");`,
    );
    db.prepare('INSERT INTO rm_items VALUES (?, ?, ?, ?)').run(
      'old',
      2,
      '{"_id":"old","_position":2,"seller":"s1","rank":5}',
      's1',
    );
    db.close();
    const store = new SqliteReadStore({ filename });
    await store.ensureCollections([spec]);
    expect(JSON.stringify(await store.get('items', 'old'))).toBe(
      '{"_id":"old","_position":2,"seller":"s1","rank":5}',
    );
    // The index field added later covers the old row.
    expect((await store.find('items', { where: { rank: 5 } })).map((d) => d._id)).toEqual(['old']);
    const newer = { _id: 'old', _position: 4, seller: 's2', rank: 6 };
    await store.commit('p', [{ kind: 'put', collection: 'items', doc: newer }], 4);
    expect(JSON.stringify(await store.get('items', 'old'))).toBe(JSON.stringify(newer));
    expect(await store.count('items', { seller: 's1' })).toBe(0);
    await store.close();
  });

  it('builds the declared indexes and drops its own that are no longer declared', async () => {
    const filename = path.join(dir, 'read.db');
    const store = new SqliteReadStore({ filename });
    const indexes = () => {
      const db = new Database(filename, { readonly: true });
      const names = (db.prepare('PRAGMA index_list(rm_items)').all() as { name: string }[])
        .map((index) => index.name)
        .filter((name) => name.startsWith('rm_'))
        .sort();
      db.close();
      return names;
    };
    await store.ensureCollections([spec]);
    expect(indexes()).toEqual(['rm_items(rank)', 'rm_items(seller)']);
    await store.ensureCollections([{ ...spec, compoundIndexes: [['seller', 'rank']] }]);
    expect(indexes()).toEqual(['rm_items(seller,rank)']);
    await store.close();
  });
});
