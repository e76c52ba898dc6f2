import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeSqlite, dataVersion } from './sqlite-store';

let dir: string;
let filename: string;
const open = () => {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  return db;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  filename = join(dir, 'test.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('dataVersion', () => {
  it("answers as PRAGMA data_version does, through this connection's and others' commits", async () => {
    const db = open();
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const other = open();
    const third = open();
    const version = dataVersion(db, filename);
    const pragma = () => db.pragma('data_version', { simple: true }) as number;
    try {
      const seen = [version()];
      const steps: (() => void)[] = [
        () => db.prepare('INSERT INTO t (v) VALUES (?)').run('own'),
        () => other.prepare('INSERT INTO t (v) VALUES (?)').run('other'),
        () => other.prepare('UPDATE t SET v = ? WHERE k = 1').run('changed'),
        () => third.pragma('wal_checkpoint(TRUNCATE)'),
        () => third.prepare('DELETE FROM t WHERE k = 2').run(),
        () => db.prepare('INSERT INTO t (v) VALUES (?)').run('own again'),
        () => other.pragma('wal_checkpoint(TRUNCATE)'),
        () => other.prepare('INSERT INTO t (v) VALUES (?)').run('after a truncated log'),
      ];
      for (const step of steps) {
        step();
        // Asked twice: the second answer comes from the unchanged header.
        expect(version()).toBe(pragma());
        expect(version()).toBe(pragma());
        seen.push(version());
      }
      // It moved on every commit (and checkpoint) of another connection, not on this one's.
      expect(seen[1]).toBe(seen[0]);
      expect(seen[6]).toBe(seen[5]);
      expect(new Set(seen).size).toBe(7);
    } finally {
      other.close();
      third.close();
      await closeSqlite(db);
    }
  });

  it('asks SQLite only once something was committed since it last asked', async () => {
    const db = open();
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const other = open();
    const version = dataVersion(db, filename);
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as { get: () => unknown };
    const asked = vi.spyOn(statement, 'get');
    try {
      const first = version();
      asked.mockClear();
      for (let i = 0; i < 100; i++) expect(version()).toBe(first);
      expect(asked).not.toHaveBeenCalled();

      other.prepare('INSERT INTO t (v) VALUES (?)').run('x');
      expect(version()).not.toBe(first);
      expect(asked).toHaveBeenCalledTimes(1);
    } finally {
      asked.mockRestore();
      other.close();
      await closeSqlite(db);
    }
  });

  it('asks SQLite every time where there is no WAL index to read', async () => {
    const db = new Database(':memory:');
    const version = dataVersion(db, ':memory:');
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as { get: () => unknown };
    const asked = vi.spyOn(statement, 'get');
    try {
      version();
      version();
      expect(asked).toHaveBeenCalledTimes(2);
    } finally {
      asked.mockRestore();
      await closeSqlite(db);
    }
  });
});
