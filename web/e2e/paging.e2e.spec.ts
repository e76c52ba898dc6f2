import { centsToDollars, minimumRaise } from '@auction/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, expect } from './support/expect';
import { accountFor } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/** More auctions than a page (20): the lists load the rest as the user scrolls. */
const COUNT = 27;
/** More bids than the auction page shows at first (20). */
const BIDS = 23;

describe('long lists load as the user scrolls, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let lister: Person;
  let auctionId = '';
  let onScreen: Page | null = null;
  const token = `Scrollable ${Date.now().toString(36)}`;

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    seller = await newPerson(browser, server.url);
    await registerThroughApi(seller.page, server.url, accountFor('Paige', 'Seller'));
    for (let i = 0; i < COUNT; i++)
      await apiAs(seller.page, server.url, 'POST', '/auction/createAuction', {
        title: `${token} lot ${String(i).padStart(2, '0')}`,
        description: 'One of many',
        category: 'antiques',
        startingPrice: 100,
        auctionDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      });
    // Another seller's auction, on which Paige bids: her own list stays as it was.
    lister = await newPerson(browser, server.url);
    await registerThroughApi(lister.page, server.url, accountFor('Lee', 'Lister'));
    const created = await apiAs(lister.page, server.url, 'POST', '/auction/createAuction', {
      title: 'An auction with many bids',
      description: 'Bid on often',
      category: 'antiques',
      startingPrice: 100,
      auctionDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    auctionId = (created.auction as { _id: string })._id;
    for (let i = 0, cents = 10_000; i < BIDS; i++, cents = minimumRaise(cents, 'one-dollar'))
      await apiAs(seller.page, server.url, 'POST', '/bid/placeBid', {
        productId: auctionId,
        bidAmount: centsToDollars(cents),
      });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  const cards = (page: Page) => page.getByRole('heading', { name: new RegExp(`^${token} lot`) });

  test('All Auctions shows the first page, then the rest once scrolled to the end', async () => {
    const { page } = seller;
    onScreen = page;
    await page.goto(`/auctions?q=${encodeURIComponent(token.toUpperCase())}`);
    await expect(page.getByRole('status').getByText('20+ auctions')).toBeVisible();
    await expect(cards(page)).toHaveCount(20);
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(COUNT);
    await expect(page.getByRole('status').getByText(`${COUNT} auctions`)).toBeVisible();
    await expect(page.getByText(`${token} lot 00`)).toBeVisible();
  });

  test('the auction page shows the first 20 bids, and the rest on Show more bids', async () => {
    const { page } = seller;
    onScreen = page;
    await page.goto(`/auction/${auctionId}`);
    const bids = page.getByRole('list', { name: 'Live Auction' }).getByRole('listitem');
    await expect(page.getByText(`${BIDS} bids are live`)).toBeVisible();
    await expect(bids).toHaveCount(20);
    await page.getByRole('button', { name: `Show more bids (${BIDS - 20} more)` }).click();
    await expect(bids).toHaveCount(BIDS);
    await expect(page.getByRole('button', { name: /Show more bids/ })).toBeHidden();
    await expect(bids.last().locator('.bid-amount')).toHaveText('$100');
  });

  test('My Auctions loads the rest as it is scrolled', async () => {
    const { page } = seller;
    onScreen = page;
    await page.goto('/dashboard/my-auctions');
    await expect(cards(page)).toHaveCount(20);
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(COUNT);
    await expect(page.getByRole('button', { name: 'Load more' })).toBeHidden();
  });
});
