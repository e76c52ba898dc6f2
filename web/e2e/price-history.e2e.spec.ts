import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

interface Entry {
  revision: number;
  at: string;
  kind: string;
  amount: number | null;
  price: number;
}

/**
 * The auction page's price history (issue 30, item 3): bids, an automatic bid, a raise and a
 * retraction placed through the API; the chart and the bid history show each at its own time to
 * the second, the seller alone sees the reserve line, and a live bid adds a point without reload.
 */
describe('the price history on the auction page, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let alice: Person;
  let bob: Person;
  let carol: Person;
  let onScreen: Page | null = null;

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    [seller, alice, bob, carol] = await Promise.all([
      newPerson(browser, server.url),
      newPerson(browser, server.url),
      newPerson(browser, server.url),
      newPerson(browser, server.url),
    ]);
    await registerThroughApi(seller.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(alice.page, server.url, accountFor('Alice', 'History'));
    await registerThroughApi(bob.page, server.url, accountFor('Bob', 'History'));
    await registerThroughApi(carol.page, server.url, accountFor('Carol', 'History'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  const bid = async (person: Person, auctionId: string, bidAmount: number, maxBidAmount?: number) =>
    (await apiAs(person.page, server.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount,
      ...(maxBidAmount === undefined ? {} : { maxBidAmount }),
    })) as { newBid: { _id: string } };

  const historyOf = async (page: Page, auctionId: string): Promise<Entry[]> =>
    (
      (await apiAs(page, server.url, 'GET', `/auction/history?auctionId=${auctionId}`)) as {
        entries: Entry[];
      }
    ).entries;

  /** The time as the page writes it (the browser's own locale and zone), to the second. */
  const secondsOf = (page: Page, iso: string) =>
    page.evaluate(
      (at) =>
        new Intl.DateTimeFormat('en-US', {
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          second: '2-digit',
        }).format(new Date(at)),
      iso,
    );

  test('bids, an automatic bid, a raise and a retraction: charted and listed at their own times, live', async () => {
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title: `Barometer ${Date.now().toString(36)}`,
      description: 'Mahogany, 1870s',
      category: 'antiques',
      startingPrice: 100,
      reservePrice: 250,
      endsAt: new Date(Date.now() + 2 * 86_400_000),
    });
    const first = await bid(alice, auctionId, 150);
    // Bob's maximum reaches the reserve: an automatic bid lifts his to it at once.
    await bid(bob, auctionId, 160, 317);
    // The raise comes seconds after the bid it raises: its row must say its own time.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await apiAs(alice.page, server.url, 'PUT', `/bid/editBid/${first.newBid._id}`, {
      bidAmount: 260,
    });
    const carols = await bid(carol, auctionId, 400);
    await apiAs(carol.page, server.url, 'DELETE', `/bid/deleteBid/${carols.newBid._id}`);

    const entries = await historyOf(alice.page, auctionId);
    vitestExpect(entries.map((e) => e.kind)).toEqual([
      'opened',
      'bid',
      'bid',
      'automatic',
      'raise',
      'automatic',
      'bid',
      'retraction',
    ]);

    await alice.page.goto(`/auction/${auctionId}`);
    await seller.page.goto(`/auction/${auctionId}`);
    onScreen = alice.page;
    const section = alice.page.getByRole('region', { name: 'Price history' });
    await expect(section.locator('tr[data-revision]')).toHaveCount(entries.length);
    // Each row at its own time, to the second: the raise is not shown at the bid's time.
    for (const entry of entries) {
      const row = section.locator(`tr[data-revision="${entry.revision}"]`);
      await expect(row.locator('time')).toHaveText(await secondsOf(alice.page, entry.at));
    }
    const bidRow = section.locator('tr[data-kind="bid"]').first();
    const raiseRow = section.locator('tr[data-kind="raise"]');
    vitestExpect(await raiseRow.locator('time').innerText()).not.toBe(
      await bidRow.locator('time').innerText(),
    );
    await expect(raiseRow).toContainText('Alice History raised their bid');
    await expect(raiseRow).toContainText('from $150');
    const lifted = section.locator('tr[data-kind="automatic"]').first();
    await expect(lifted).toContainText('Automatic bid for Bob History');
    await expect(lifted).toContainText('reached the reserve');
    await expect(section.locator('tr[data-kind="retraction"]')).toContainText(
      'Carol History retracted their bid',
    );

    // The chart: a point per bid, raise, automatic bid and retraction, each kind drawn apart.
    const chart = section.locator('svg.time-chart-svg');
    await expect(chart.locator('[data-point]')).toHaveCount(7);
    await expect(chart.locator('[data-shape="diamond"]')).toHaveCount(2);
    await expect(chart.locator('[data-shape="square"]')).toHaveCount(1);
    await expect(chart.locator('[data-shape="ring"]')).toHaveCount(1);
    // The reserve line is the seller's alone; nobody else is sent a maximum or the reserve.
    const sellers = seller.page.getByRole('region', { name: 'Price history' });
    await expect(sellers.getByText('Your reserve $250')).toBeVisible();
    await expect(section.getByText('Your reserve')).toBeHidden();
    vitestExpect(await alice.page.content()).not.toContain('$317');
    vitestExpect(await seller.page.content()).not.toContain('$317');

    // A live bid adds its point and its row without a reload.
    await bid(carol, auctionId, 500);
    await expect(chart.locator('[data-point]')).toHaveCount(8);
    await expect(section.locator('tr[data-revision]')).toHaveCount(entries.length + 1);
    await expect(section.locator('tr[data-kind="bid"]').last()).toContainText(
      'Bid by Carol History',
    );
    await eventually(async () =>
      vitestExpect(await sellers.locator('[data-point]').count()).toBe(8),
    );
    // The table behind the chart lists the same points for screen readers.
    await section.getByText('Price over time as a table').click();
    await expect(section.locator('.time-chart-table tbody tr')).toHaveCount(8);
  });

  test('Auctions Won and My Auctions chart the winnings and the sales over time', async () => {
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title: `Sextant ${Date.now().toString(36)}`,
      description: 'Brass, 1900s',
      category: 'antiques',
      startingPrice: 100,
      buyNowPrice: 345,
      endsAt: new Date(Date.now() + 86_400_000),
    });
    await apiAs(bob.page, server.url, 'POST', '/bid/buyNow', { productId: auctionId, price: 345 });

    await bob.page.goto('/dashboard/auctions-won');
    const won = bob.page.getByRole('figure', { name: 'Your winnings over time' });
    await expect(won.locator('[data-point]')).toHaveCount(2);
    await won.getByText('Your winnings over time as a table').click();
    await expect(won.locator('.time-chart-table tbody')).toContainText('$345');

    await seller.page.goto('/dashboard/my-auctions');
    onScreen = seller.page;
    const sales = seller.page.getByRole('figure', { name: 'Your sales over time' });
    await expect(sales.locator('[data-point]')).toHaveCount(2);
    await sales.getByText('Your sales over time as a table').click();
    await expect(sales.locator('.time-chart-table tbody')).toContainText('$345');
  });
});
