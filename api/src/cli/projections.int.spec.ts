import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '@auction/engine';
import { SqliteReadStore, auctionDetail, catalogAuctions, catalogBids } from '@auction/projections';
import { ReadStoreUserDirectory } from '@auction/projections/testing';
import { loadConfig } from '../config/config';
import { openLogAndReadModels } from '../server/open-stores';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, 'projections.ts');
const projections = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', cli, ...args], {
    // The embedded stores this test writes, whatever the runner's environment names.
    env: {
      ...process.env,
      MONGODB_URL: '',
      EVENTSTORE_CONNECTION_STRING: '',
      KAFKA_BROKERS: '',
      DATA_DIR: dataDir,
    },
  });
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let dataDir: string;
let head: number;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-'));
  const stores = await openLogAndReadModels(loadConfig({ DATA_DIR: dataDir }));
  const now = Date.now();
  const bus = new Engine({ store: stores.events });
  await bus.seedFixedCategories(new Date(now).toISOString());
  const meta = (actorId: string, n: number) => ({
    commandId: `c-${n}`,
    correlationId: `c-${n}`,
    actorId,
    at: new Date(now + n).toISOString(),
  });
  await bus.send({
    type: 'CreateAuction',
    data: {
      auctionId: 'a1',
      title: 'Clock',
      description: 'Old clock',
      categoryId: 'antiques',
      startingPrice: 10_000,
      endsAt: new Date(now + 3_600_000).toISOString(),
      image: null,
    },
    metadata: meta('seller', 1),
  });
  await bus.send({
    type: 'PlaceBid',
    data: { auctionId: 'a1', bidId: 'b1', amount: 12_000 },
    metadata: meta('alice', 2),
  });
  await bus.send({
    type: 'PlaceBid',
    data: { auctionId: 'a1', bidId: 'b2', amount: 13_000 },
    metadata: meta('bob', 3),
  });
  await bus.close();
  head = (await stores.events.headPosition()) ?? 0;
  await stores.close();
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run projections', () => {
  it('status catches every projection up and reports it; rebuild builds the same documents again', async () => {
    const status = lines((await projections(dataDir, 'status')).stdout);
    expect(status.map((s) => s.name)).toEqual([
      'catalog',
      'activity',
      'winnings',
      'notifications',
      'watchlist',
    ]);
    for (const s of status) expect(s).toMatchObject({ position: head, behind: 0 });

    const read = new SqliteReadStore({ filename: join(dataDir, 'read.sqlite') });
    await read.ensureCollections([catalogAuctions, catalogBids]);
    const users = new ReadStoreUserDirectory(read);
    await users.init();
    const before = await auctionDetail(read, users, 'a1');
    expect(before).toMatchObject({ currentBid: 130, bidCount: 2 });
    await read.close();

    const rebuilt = lines((await projections(dataDir, 'rebuild', 'catalog')).stdout);
    expect(rebuilt).toEqual([expect.objectContaining({ rebuilt: 'catalog', position: head })]);
    const again = new SqliteReadStore({ filename: join(dataDir, 'read.sqlite') });
    await again.ensureCollections([catalogAuctions, catalogBids]);
    const usersAgain = new ReadStoreUserDirectory(again);
    await usersAgain.init();
    expect(await auctionDetail(again, usersAgain, 'a1')).toEqual(before);
    await again.close();
  });

  it('refuses an unknown projection or command with exit code 2', async () => {
    const failure = (args: string[]) =>
      projections(dataDir, ...args).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
    const unknown = await failure(['rebuild', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown projection nope/);
    const bad = await failure(['explode']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/usage/);
  });
});
