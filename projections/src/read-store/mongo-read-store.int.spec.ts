import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { MongoClient } from 'mongodb';
import type { CommandStartedEvent } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeReadStoreContract } from './contract';
import { MongoReadStore, type MongoReadStoreOptions, probeTransactions } from './mongo-read-store';

// The suites that need a server run when MONGODB_URL names one (e.g. `scripts/ferretdb.sh start`),
// and show as skipped otherwise.
const url = process.env.MONGODB_URL ?? '';
// The server's own setting (scripts/with-mongodb.sh sets 8 for FerretDB's SQLite backend); unset:
// bulk writes, one command per collection and kind.
const configured = process.env.MONGODB_STATEMENTS_PER_COMMAND
  ? Number(process.env.MONGODB_STATEMENTS_PER_COMMAND)
  : undefined;
const testDb = () => `auction_rs_test_${randomUUID().slice(0, 8)}`;

/** A local port nothing listens on. */
const closedPort = async (): Promise<number> => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

const dropDatabase = async (dbName: string): Promise<void> => {
  const client = await MongoClient.connect(url);
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
};

describe('MongoReadStore without a server', () => {
  it('fails to connect within its timeout, naming MONGODB_URL and hiding the password', async () => {
    const port = await closedPort();
    const started = Date.now();

    const connecting = MongoReadStore.connect(`mongodb://ann:secret@127.0.0.1:${port}`, 'x', {
      timeoutMs: 300,
    });

    const error = await connecting.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error?.message).toMatch(/^MONGODB_URL: cannot use mongodb:\/\/\*\*\*@127\.0\.0\.1:\d+ /);
    expect(error?.message).not.toContain('secret');
  });

  it('names MONGODB_URL when it is not a connection string', async () => {
    await expect(MongoReadStore.connect('http://localhost', 'x')).rejects.toThrow(
      /^MONGODB_URL: http:\/\/localhost is not a MongoDB connection string/,
    );
  });

  it('gives up a ping at its deadline, not at the driver timeout', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}`, {
      serverSelectionTimeoutMS: 30_000,
    });
    const store = MongoReadStore.fromClient(client, 'x', { timeoutMs: 200 });
    try {
      const started = Date.now();
      await expect(store.ping()).rejects.toThrow(/no answer within 200 ms/);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!url)('MongoReadStore on MONGODB_URL', () => {
  const contract = (name: string, options: MongoReadStoreOptions) =>
    describeReadStoreContract(name, async () => {
      const dbName = testDb();
      let store = await MongoReadStore.connect(url, dbName, options);
      return {
        store,
        partialBatches: !(await store.usesTransactions()),
        reopen: async () => {
          await store.close();
          store = await MongoReadStore.connect(url, dbName, options);
          return store;
        },
        cleanup: async () => {
          await store.close();
          await dropDatabase(dbName);
        },
      };
    });

  // On a replica set the first runs in transactions; the others always run the idempotent path,
  // with the statements per command the server is configured for, and 8 at most whatever it is.
  const setting = configured === undefined ? 'bulk writes' : `${configured} statements a command`;
  contract(`MongoDB, ${setting}`, { statementsPerCommand: configured });
  contract(`MongoDB, transactions never, ${setting}`, {
    transactions: 'never',
    statementsPerCommand: configured,
  });
  if (configured !== 8) {
    contract('MongoDB, transactions never, 8 statements a command', {
      transactions: 'never',
      statementsPerCommand: 8,
    });
  }

  describe('the store itself', () => {
    let client: MongoClient;
    let dbName: string;
    let commands: CommandStartedEvent[];

    beforeEach(async () => {
      dbName = testDb();
      commands = [];
      client = new MongoClient(url, { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
      client.on('commandStarted', (event) => commands.push(event));
      await client.connect();
    });

    afterEach(async () => {
      await client.db(dbName).dropDatabase();
      await client.close();
    });

    const checkpointWrites = () =>
      commands.filter(
        (event) => event.commandName === 'update' && event.command.update === 'rm_checkpoints',
      ).length;

    it('writes the checkpoint of batches that write nothing once per delay, not once per batch', async () => {
      const store = MongoReadStore.fromClient(client, dbName, { emptyCheckpointDelayMs: 300 });
      const other = MongoReadStore.fromClient(client, dbName, { emptyCheckpointDelayMs: 0 });
      await store.ensureCollections([{ name: 'items', indexes: [] }]);
      await store.commit('p', [], 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      commands = [];
      for (let position = 2; position <= 20; position++) await store.commit('p', [], position);
      // This store answers it at once; the others read it once it is written.
      expect(await store.checkpoint('p')).toBe(20);
      expect(checkpointWrites()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(checkpointWrites()).toBe(1);
      expect(await other.checkpoint('p')).toBe(20);
      // A batch that writes moves it at once, and a late one never moves it back.
      await store.commit('p', [], 21);
      await store.commit(
        'p',
        [{ kind: 'put', collection: 'items', doc: { _id: 'a', _position: 22 } }],
        22,
      );
      expect(await other.checkpoint('p')).toBe(22);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await other.checkpoint('p')).toBe(22);
    });

    it('never lets a late checkpoint land after a reset, and writes it at close', async () => {
      const store = MongoReadStore.fromClient(client, dbName, { emptyCheckpointDelayMs: 300 });
      const other = MongoReadStore.fromClient(client, dbName, { emptyCheckpointDelayMs: 0 });
      await store.commit('p', [], 5);
      await store.reset('p', []);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await other.checkpoint('p')).toBeUndefined();
      expect(await store.checkpoint('p')).toBeUndefined();
      await store.commit('q', [], 7);
      await store.close();
      expect(await other.checkpoint('q')).toBe(7);
    });

    it('says whether batches commit in transactions, as a probe transaction finds', async () => {
      const store = MongoReadStore.fromClient(client, dbName);
      const transactions = await store.usesTransactions();
      console.info(
        `MongoDB read store on ${url.replace(/\/\/[^/@]*@/, '//***@')}: batches commit ${
          transactions ? 'in transactions' : 'without transactions (idempotent replays)'
        }`,
      );
      expect(await probeTransactions(client, client.db(dbName))).toBe(transactions);
      expect(
        await MongoReadStore.fromClient(client, dbName, {
          transactions: 'never',
        }).usesTransactions(),
      ).toBe(false);
    });

    /**
     * The statements of each write command of a commit of 300 puts and 40 deletes, by kind, over
     * a collection that already holds the first 90 documents (at an older position).
     */
    const largeBatch = async (
      statementsPerCommand: number | undefined,
    ): Promise<Record<'delete' | 'insert' | 'update', number[]>> => {
      const store = MongoReadStore.fromClient(client, dbName, {
        transactions: 'never',
        statementsPerCommand,
      });
      await store.ensureCollections([{ name: 'items', indexes: [] }]);
      const docs = Array.from({ length: 300 }, (_, i) => ({ _id: `d${i}`, _position: 1, i }));
      await client
        .db(dbName)
        .collection<{ _id: string; _position: number; i: number }>('rm_items')
        .insertMany(docs.slice(0, 90).map((doc) => ({ ...doc, _position: 0, i: -1 })));
      commands = [];
      await store.commit(
        'p',
        [
          ...docs.map((doc) => ({ kind: 'put' as const, collection: 'items', doc })),
          ...docs
            .slice(0, 40)
            .map((doc) => ({ kind: 'delete' as const, collection: 'items', id: doc._id })),
        ],
        1,
      );
      expect(await store.count('items')).toBe(260);
      const stored = await store.find('items', {});
      expect(stored.map((doc) => doc.i).sort((a, b) => Number(a) - Number(b))).toEqual(
        docs.slice(40).map((doc) => doc.i),
      );
      const statements = (kind: 'delete' | 'insert' | 'update', list: string) =>
        commands
          .filter(({ command }) => command[kind] === 'rm_items')
          .map(({ command }) => (command[list] as unknown[]).length);
      return {
        delete: statements('delete', 'deletes'),
        insert: statements('insert', 'documents'),
        update: statements('update', 'updates'),
      };
    };

    it('commits a large batch without a transaction a few statements per command when set', async () => {
      // FerretDB's SQLite backend stops answering once one command holds a hundred statements.
      const statements = await largeBatch(8);
      const all = [...statements.delete, ...statements.insert, ...statements.update];
      expect(Math.max(...all)).toBe(8);
      const sum = (counts: number[]) => counts.reduce((total, n) => total + n, 0);
      // 40 deletes; every put tried as an insert; the 50 stored ones then replaced.
      expect([sum(statements.delete), sum(statements.insert), sum(statements.update)]).toEqual([
        40, 260, 50,
      ]);
    });

    it.skipIf(configured !== undefined)(
      'commits a large batch without a transaction in one command per kind of write by default',
      async () => {
        // The 40 deletes win over the puts before them: 40 deletes, then 260 inserts, of which
        // the 50 already stored come back as duplicates, then their guarded replaces.
        expect(await largeBatch(undefined)).toEqual({ delete: [40], insert: [260], update: [50] });
      },
    );

    it('refuses a number of statements per command below 1', () => {
      expect(() => MongoReadStore.fromClient(client, dbName, { statementsPerCommand: 0 })).toThrow(
        /statementsPerCommand must be a whole number of at least 1/,
      );
    });

    it('forgets the checkpoint before it deletes a document in a reset', async () => {
      const store = MongoReadStore.fromClient(client, dbName);
      await store.ensureCollections([
        { name: 'items', indexes: [] },
        { name: 'tags', indexes: [] },
      ]);
      await store.commit(
        'p',
        [{ kind: 'put', collection: 'items', doc: { _id: 'a', _position: 1 } }],
        1,
      );
      commands = [];

      await store.reset('p', ['items', 'tags']);

      const deletes = commands
        .filter(({ commandName }) => commandName === 'delete')
        .map(({ command }) => command.delete as string);
      expect(deletes).toEqual(['rm_checkpoints', 'rm_items', 'rm_tags']);
      expect(await store.checkpoint('p')).toBeUndefined();
    });

    it('commits a batch and its checkpoint in one transaction when the server takes them', async (context) => {
      const store = MongoReadStore.fromClient(client, dbName);
      if (!(await store.usesTransactions())) context.skip('the server takes no transactions');
      await store.ensureCollections([{ name: 'items', indexes: [] }]);
      commands = [];

      await store.commit(
        'p',
        [{ kind: 'put', collection: 'items', doc: { _id: 'a', _position: 1 } }],
        1,
      );

      const names = commands.map(({ commandName }) => commandName);
      expect(names.at(-1)).toBe('commitTransaction');
      expect(commands.filter(({ command }) => command.startTransaction === true)).toHaveLength(1);
      expect(await store.checkpoint('p')).toBe(1);
    });

    it('leaves a shared client open when it closes', async () => {
      const store = MongoReadStore.fromClient(client, dbName);
      await store.ping();

      await store.close();

      await expect(client.db(dbName).command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
    });

    it('answers a ping on a store it connected itself, and closes that connection', async () => {
      const store = await MongoReadStore.connect(url, dbName, { timeoutMs: 2000 });
      await store.ping();
      await store.close();
      await expect(store.ping(500)).rejects.toThrow();
    });
  });
});
