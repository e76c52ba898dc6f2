import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AuditEvent } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SampleAuction, sampleAuction, tamperWithEvent } from '../testing/audit-fixtures';
import { type TestUser, createAuctionOverHttp, sellerAliceBob } from '../testing/fixtures';
import { Gate, heldCommits } from '../testing/held-commits';
import { type TestServer, startTestServer } from '../testing/test-server';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, 'audit.ts');

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let sample: SampleAuction;
/** While closed, the server's catalog commits nothing: its read model stays behind the log. */
const catalog = new Gate();

const audit = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, ...server.storeEnv, DATA_DIR: server.dataDir },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      projectionStore: heldCommits((projection) =>
        projection === 'catalog' ? catalog.promise : undefined,
      ),
    },
  );
  [seller, alice, bob] = await sellerAliceBob(server);
  sample = await sampleAuction(server, seller, alice, bob);
});
afterAll(async () => {
  catalog.open();
  await server.cleanup();
});

describe('npm run audit', () => {
  it('prints the timeline, the state at the end and an intact verification; exit 0', async () => {
    const result = await audit(sample.auctionId, '--verify');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const events = (await server.deps.events.readStream(`auction-${sample.auctionId}`)).map(
      (e) => e.metadata as { hash: string },
    );
    const timeline = lines.filter((line) => line.startsWith('#'));
    expect(timeline).toHaveLength(6);
    const expectations = [
      ['#0', 'AuctionCreated', 'Sally Seller', '$100.00'],
      ['#1', 'BidPlaced', 'Alice Able', '$120.00'],
      ['#2', 'BidPlaced', 'Bob Baker', '$130.00'],
      ['#3', 'BidEdited', 'Alice Able', '$140.00'],
      ['#4', 'BidRetracted', 'Bob Baker', '$130.00'],
      ['#5', 'AuctionClosed', 'system', '$140.00'],
    ];
    expectations.forEach((parts, i) => {
      for (const part of parts) expect(timeline[i]).toContain(part);
      expect(timeline[i]).toContain(events[i]?.hash.slice(0, 12));
    });
    expect(result.stdout).toContain('State at revision 5 of 5');
    expect(result.stdout).toMatch(/status\s+Sold/);
    expect(result.stdout).toMatch(/winner\s+Alice Able/);
    expect(result.stdout).toContain('Verification: OK');
    expect(result.stdout).toMatch(/hash chain\s+intact over 6 events/);
  });

  it('shows the state at a revision or a time with its bid board', async () => {
    const atTwo = await audit(sample.auctionId, '--revision', '2');
    expect(atTwo.code).toBe(0);
    expect(atTwo.stdout).toContain('State at revision 2 of 5');
    expect(atTwo.stdout).toMatch(/current bid\s+\$130\.00/);
    expect(atTwo.stdout).toMatch(/leader\s+Bob Baker/);
    expect(atTwo.stdout).toMatch(
      /bids \(2 standing, highest first\)\n\s+\$130\.00\s+Bob Baker.*\n\s+\$120\.00\s+Alice Able/,
    );

    const before = await audit(sample.auctionId, '--at', '2000-01-01T00:00:00Z');
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('State before the first event');
    expect(before.stdout).toMatch(/status\s+None/);
  });

  it('exports NDJSON to a file: the same events as the events route', async () => {
    const file = join(server.dataDir, 'export.ndjson');
    const result = await audit(sample.auctionId, '--export', file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Exported 6 events to ${file}`);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => AuditEvent.parse(JSON.parse(line)));
    const stored = await server.deps.events.readStream(`auction-${sample.auctionId}`);
    expect(lines.map((e) => [e.revision, e.position, e.type, e.data, e.metadata])).toEqual(
      stored.map((e) => [e.revision, e.position, e.type, e.data, e.metadata]),
    );
    rmSync(file);
  });

  it('exits 0 when a read model is only behind the log, naming it, and compares it once it caught up', async () => {
    catalog.close();
    const auctionId = await createAuctionOverHttp(seller.client);
    const behind = await audit(auctionId, '--verify');
    expect(behind.code).toBe(0);
    expect(behind.stdout).toContain('Verification: OK so far: catalog behind the log');
    expect(behind.stdout).toMatch(/catalog\s+BEHIND, not compared/);
    expect(behind.stdout).not.toContain('problem:');

    catalog.open();
    await server.deps.runner.waitFor((await server.deps.events.headPosition()) ?? 0);
    const caughtUp = await audit(auctionId, '--verify');
    expect(caughtUp.code).toBe(0);
    expect(caughtUp.stdout).toContain('Verification: OK\n');
    expect(caughtUp.stdout).toMatch(/catalog\s+\d+ documents compared/);
  });

  it('exits 1 naming the revision of an event changed in the events file', async () => {
    const { auctionId } = await sampleAuction(server, seller, alice, bob);
    tamperWithEvent(server.dataDir, auctionId, 3, 'amount', 15_000);
    const result = await audit(auctionId, '--verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Verification: PROBLEMS FOUND');
    expect(result.stdout).toContain('hash chain    BROKEN at revision 3 (hash-mismatch)');
    expect(result.stdout).toContain('problem: The hash chain breaks at revision 3 (hash-mismatch)');
    expect(result.stdout).toMatch(
      /DIFFERENT\s+catalog_bids\/\S+ amount \(changed\): stored 14000, replayed 15000/,
    );
  });

  it('exits 1 when an event can no longer be read as an auction event, and still verifies', async () => {
    const { auctionId } = await sampleAuction(server, seller, alice, bob);
    tamperWithEvent(server.dataDir, auctionId, 1, 'amount', 'lots');
    const result = await audit(auctionId, '--verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Revision 1 is not a valid auction event, so the state cannot be folded through it',
    );
    expect(result.stdout).toContain('hash chain    BROKEN at revision 1 (hash-mismatch)');
  });

  it('exits 2 when DATA_DIR holds no event log', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', cli, 'a1'], {
      env: { ...process.env, ...server.storeEnv, DATA_DIR: join(server.dataDir, 'nothing-here') },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No event log in');
  });

  it.each([
    ['no arguments', [], /usage: npm run audit/],
    ['two auction ids', ['a1', 'a2'], /usage: npm run audit/],
    ['an id that cannot be one', ['not an id'], /usage: npm run audit/],
    ['an unknown option', ['a1', '--explode'], /Unknown option '--explode'/],
    ['a bad revision', ['a1', '--revision', 'x'], /revision must be a whole number, 0 or more/],
    ['a bad time', ['a1', '--at', 'noon'], /at must be an ISO date-time/],
    [
      'both points',
      ['a1', '--revision', '1', '--at', '2030-01-01T00:00:00Z'],
      /Give either revision or at, not both/,
    ],
    ['an empty export file name', ['a1', '--export', ''], /--export needs a file name/],
  ])('exits 2 for %s', async (_case, args, message) => {
    const result = await audit(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 for an auction the log does not know, and for a revision past its end', async () => {
    const unknown = await audit('no-such-auction');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Auction not found');
    const past = await audit(sample.auctionId, '--revision', '6');
    expect(past.code).toBe(2);
    expect(past.stderr).toContain("revision must be at most 5, the auction's last revision");
  });
});
