import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/**
 * The seller's own edit, read from a catalog held behind the log (the real server, its catalog's
 * commits held through the `projectionStore` seam: api/src/testing/held-catalog-main.ts): the page shows
 * what the catalog holds and says it is catching up, then shows the edit once the catalog has it.
 */
describe('a page read behind the user’s own write, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;

  beforeAll(async () => {
    // A short server wait, so the client's retries (and their budget) decide the timing.
    server = await startProductServer(
      { READ_WAIT_MS: '300' },
      'api/src/testing/held-catalog-main.ts',
    );
    browser = await launchBrowser();
    seller = await newPerson(browser, server.url);
    await registerThroughApi(seller.page, server.url, accountFor('Rhea', 'Seller'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (seller) await screenshot(seller.page, task.name);
  });

  /** Says `line` to the server and waits for its answer. */
  const tell = async (line: 'hold' | 'release') => {
    const before = server.output().split(`catalog ${line === 'hold' ? 'held' : 'released'}`).length;
    server.tell(line);
    await eventually(() =>
      vitestExpect(
        server.output().split(`catalog ${line === 'hold' ? 'held' : 'released'}`).length,
      ).toBeGreaterThan(before),
    );
  };

  test('the seller lowers the reserve while the catalog is held: the page says it is catching up, then shows the new reserve', async () => {
    const { page } = seller;
    const auctionId = await createAuctionThroughApi(page, server.url, {
      title: `Barometer ${Date.now().toString(36)}`,
      description: 'Aneroid, brass case',
      category: 'antiques',
      startingPrice: 100,
      reservePrice: 150,
      endsAt: new Date(Date.now() + 3_600_000),
    });
    await page.goto(`/auction/${auctionId}`);
    await expect(page.getByText('Your reserve: $150')).toBeVisible();
    const notice = page.getByText('Some of your recent changes are still being applied');
    await expect(notice).toBeHidden();

    await tell('hold');
    const edit = await page.request.patch(`/api/v1/auction/editAuction/${auctionId}`, {
      headers: { Origin: server.url },
      data: { reservePrice: 120 },
    });
    vitestExpect(edit.status()).toBe(200);

    // Opened afresh: the detail is answered marked, asked again, still marked.
    await page.goto(`/auction/${auctionId}`);
    await expect(page.getByText('Your reserve: $150')).toBeVisible();
    await eventually(async () => vitestExpect(await notice.first().isVisible()).toBe(true), 20_000);
    vitestExpect(await page.getByRole('status').filter({ has: notice }).count()).toBe(1);

    // The catalog applies the edit: the page catches up by itself.
    await tell('release');
    await eventually(
      async () =>
        vitestExpect(await page.getByText('Your reserve: $120').first().isVisible()).toBe(true),
      20_000,
    );
    await expect(notice).toBeHidden();
  }, 90_000);
});
