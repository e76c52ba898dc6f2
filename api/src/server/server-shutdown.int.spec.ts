import type { ReadStore } from '@auction/projections';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { type RunningServer, startServer } from './server';
import { createAuctionOverHttp, placeBid, signUpAndLogIn } from '../testing/fixtures';
import { TestClient, type TestServer, startTestServer } from '../testing/test-server';

let first: TestServer | undefined;
let again: RunningServer | undefined;
afterEach(async () => {
  await again?.close();
  again = undefined;
  await first?.cleanup();
  first = undefined;
});

/**
 * The projections' read store, whose `commit` never returns once `hang` is called: a read side
 * that cannot stop (a batch stuck on a slow or lagging store). `entered` resolves when a batch
 * is stuck.
 */
const hangingCommits = () => {
  let hanging = false;
  let enter = () => undefined as void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const wrap = (store: ReadStore): ReadStore =>
    new Proxy(store, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property !== 'commit' || typeof value !== 'function') return value;
        return (...args: Parameters<ReadStore['commit']>) => {
          if (!hanging) return target.commit(...args);
          enter();
          return new Promise<void>(() => undefined);
        };
      },
    });
  return { wrap, entered, hang: () => (hanging = true) };
};

describe('a stop whose read side hangs', () => {
  it('ends within SHUTDOWN_TIMEOUT_MS, says what it cut, and loses nothing acknowledged', async () => {
    const read = hangingCommits();
    const timeoutMs = 1500;
    first = await startTestServer(
      { SHUTDOWN_TIMEOUT_MS: String(timeoutMs) },
      { projectionStore: read.wrap },
    );
    const seller = await signUpAndLogIn(first);
    const bidder = await signUpAndLogIn(first);
    const auctionId = await createAuctionOverHttp(seller.client, { title: 'Barometer' });
    read.hang();
    await placeBid(bidder, auctionId, 150);
    await read.entered;

    const started = performance.now();
    await first.close();
    const tookMs = performance.now() - started;
    // The bound, and the stores' own grace (1 s) on top at most.
    expect(tookMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(tookMs).toBeLessThan(timeoutMs + 1500);
    const said = first.logs.map((entry) => String(entry[0]));
    expect(said).toContainEqual(
      expect.stringMatching(/^Shutdown cut short after \d+ ms .*the read models/),
    );
    // Commands were not cut: nothing was in flight.
    expect(said.some((line) => line.includes('still waiting for'))).toBe(false);

    // The bid was acknowledged: the next start replays the batch that was cut from its checkpoint.
    again = await startServer(
      loadConfig({ ...first.storeEnv, DATA_DIR: first.dataDir, PORT: '0', HOST: '127.0.0.1' }),
      { log: () => undefined },
    );
    await again.caughtUp;
    const page = await new TestClient(again.url).get(
      `/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`,
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ auctionDetails: { currentBid: 150, bidCount: 1 } });
  });

  it('a stop with nothing stuck cuts nothing', async () => {
    first = await startTestServer({ SHUTDOWN_TIMEOUT_MS: '1500' });
    const seller = await signUpAndLogIn(first);
    await createAuctionOverHttp(seller.client, { title: 'Sextant' });
    await first.close();
    expect(first.logs.map((entry) => String(entry[0]))).not.toContainEqual(
      expect.stringMatching(/Shutdown/),
    );
  });
});
