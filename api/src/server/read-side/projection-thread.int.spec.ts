import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '@auction/engine';
import type { NewEvent } from '@auction/engine/testing';
import { EventLog } from '@auction/projections/testing';
import { loadConfig } from '../../config/config';
import { type RunningServer, startServer } from '../server';
import { createAuctionOverHttp, signUpAndLogIn } from '../../testing/fixtures';
import { type TestServer, startTestServer } from '../../testing/test-server';
import { testStoreEnv } from '../../testing/test-stores';
import { ProjectionThread } from './projection-thread';

/**
 * The read models' projections on a thread of their own (PROJECTIONS_THREAD=worker, the default):
 * their batches are committed off the request thread, which answers requests meanwhile; a thread
 * that dies is reported and restarted, and the read side keeps up after it; a thread that never
 * finishes its batch does not hold a shutdown past SHUTDOWN_TIMEOUT_MS.
 */
const embedded = !testStoreEnv().MONGODB_URL;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

const threadOf = (running: Pick<RunningServer, 'deps'>): ProjectionThread => {
  const runner = running.deps.runner;
  expect(runner).toBeInstanceOf(ProjectionThread);
  return runner as ProjectionThread;
};

/** A log of `auctions` auctions with 200 bids each, written to DATA_DIR's event store. */
const writeHistory = async (dataDir: string, auctions: number): Promise<number> => {
  const log = new EventLog();
  log.category('antiques', 'Antiques');
  for (let a = 0; a < auctions; a++) {
    const auctionId = `auction-${a}`;
    log.create(auctionId, { seller: `seller-${a % 20}` });
    let amount = 10_000;
    for (let b = 0; b < 200; b++) {
      amount += 100;
      log.bid(auctionId, `bidder-${(a * 7 + b) % 100}`, amount, undefined, `${auctionId}-bid-${b}`);
    }
  }
  const byStream = new Map<string, NewEvent[]>();
  for (const e of log.events) {
    const list = byStream.get(e.streamId) ?? [];
    list.push({ id: randomUUID(), type: e.type, data: e.data, metadata: e.metadata });
    byStream.set(e.streamId, list);
  }
  const events = new SqliteEventStore({ filename: join(dataDir, 'events.sqlite') });
  for (const [streamId, list] of byStream) await events.append(streamId, list, 'no_stream');
  const head = (await events.headPosition()) ?? 0;
  await events.close();
  return head;
};

describe('the projections’ thread', () => {
  it.skipIf(!embedded)(
    'commits every batch off the request thread, which answers requests during a catch-up',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'api-thread-'));
      const head = await writeHistory(dataDir, 40);
      const logs: unknown[][] = [];
      const running = await startServer(
        loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }),
        { log: (...args) => logs.push(args) },
      );
      try {
        const thread = threadOf(running);
        let caughtUp = false;
        void running.caughtUp.then(() => (caughtUp = true));
        // While the catch-up of the whole log runs, the request thread keeps answering.
        let answeredBehind = 0;
        while (!caughtUp) {
          const res = await fetch(`${running.url}/api/v1/health`);
          const body = (await res.json()) as { ready?: boolean };
          if (body.ready === false) answeredBehind += 1;
        }
        expect(answeredBehind).toBeGreaterThan(0);
        expect(running.deps.runner.reached(head)).toBe(true);
        expect(thread.committedOn.size).toBeGreaterThan(0);
        expect(thread.committedOn.has(threadId)).toBe(false);
        const res = await get(
          running.url,
          '/api/v1/auction/fetchSpecificAuction?auctionId=auction-0',
        );
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ auctionDetails: { bidCount: 200 } });
        expect(logs).toEqual([]);
      } finally {
        await running.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('reports a thread that dies, restarts it, and keeps the read side going', async () => {
    server = await startTestServer();
    const thread = threadOf(server);
    const seller = await signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' });
    thread.fault('crash');
    await expect
      .poll(() => server?.logs.map(([message]) => message), { timeout: 45_000 })
      .toContain('The read models’ thread is running again');
    const messages = server.logs.map(([message]) => message);
    expect(messages).toContain('The read models’ thread failed');
    expect(messages.some((m) => String(m).startsWith('The read models’ thread exited'))).toBe(true);
    const failure = server.logs.find(([message]) => message === 'The read models’ thread failed');
    expect(String((failure?.[1] as Error).message)).toContain('crashed (test seam)');
    // A write after the restart is read back by its writer: the new thread applies it.
    const auctionId = await createAuctionOverHttp(seller.client, { title: 'After the crash' });
    const res = await seller.client.get(
      `/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`,
    );
    expect(res.status).toBe(200);
    expect((res.body as { auctionDetails: { title: string } }).auctionDetails.title).toBe(
      'After the crash',
    );
  });

  it('answers status without a thread stuck in its batch, and ends it within SHUTDOWN_TIMEOUT_MS', async () => {
    const started = await startTestServer({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const thread = threadOf(started);
    thread.fault('block');
    // The thread takes the fault at its next turn; the stop must find it stuck.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Health does not wait for it: the positions it last told, and why.
    const status = await started.deps.runner.status();
    expect(status[0]?.error).toMatch(/did not answer within/);
    // Nor does it keep the question: a stuck thread polled by health holds nothing more.
    expect(thread.unanswered).toBe(0);
    const before = Date.now();
    await started.close();
    const took = Date.now() - before;
    // The read models' step is cut at the deadline; the thread itself is ended at its own bound.
    expect(took).toBeLessThan(1000 + 1500);
    expect(started.logs.map(([message]) => String(message)).join('\n')).toMatch(
      /did not wait for .*the read models/,
    );
    await expect.poll(() => thread.isRunning(), { timeout: 3000 }).toBe(false);
    server = started;
  });
});

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: await res.json() };
};
