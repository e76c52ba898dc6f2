import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

const DAY_MS = 86_400_000;

/**
 * What a closed auction says, to whom (issue 30, item 2): a Buy It Now sale and a normal close, as
 * the seller, the winner and a losing bidder see them live, in their history, bell and dashboard.
 */
describe('closed auctions say they are closed, and to each viewer what it means to them', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let alice: Person;
  let bob: Person;
  let onScreen: Page | null = null;

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    [seller, alice, bob] = await Promise.all([
      newPerson(browser, server.url),
      newPerson(browser, server.url),
      newPerson(browser, server.url),
    ]);
    await registerThroughApi(seller.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(alice.page, server.url, accountFor('Alice', 'Bidder'));
    await registerThroughApi(bob.page, server.url, accountFor('Bob', 'Buyer'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  const priceCard = (page: Page) => page.locator('.price-card-current');
  const timer = (page: Page) => page.getByRole('timer', { name: 'Time left' });
  const openBell = async (page: Page) => {
    await page
      .getByRole('button', { name: /Notifications/ })
      .first()
      .click();
    // The bell's panel (the toasts' region has the same name).
    return page.locator('#notification-panel');
  };

  test('a Buy It Now sale ends the page at once: when it sold, no countdown, the buyer won, the seller told of the sale', async () => {
    const title = `Brass telescope ${Date.now().toString(36)}`;
    const endsAt = new Date(Date.now() + 7 * DAY_MS);
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title,
      description: 'Three draws, 1890s',
      category: 'antiques',
      startingPrice: 100,
      reservePrice: 500,
      buyNowPrice: 800,
      endsAt,
    });
    // A second auction of the seller's stays Live: one active auction once the first has sold.
    await createAuctionThroughApi(seller.page, server.url, {
      title: `Still live ${Date.now().toString(36)}`,
      description: 'Not sold',
      category: 'antiques',
      startingPrice: 100,
      endsAt,
    });
    for (const { page } of [seller, bob]) await page.goto(`/auction/${auctionId}`);
    onScreen = seller.page;
    await expect(timer(seller.page)).toBeVisible();

    await bob.page.getByRole('button', { name: 'Buy It Now for $800' }).click();
    await bob.page
      .getByRole('dialog', { name: 'Buy It Now' })
      .getByRole('button', { name: 'Yes' })
      .click();
    const boughtAt = Date.now();

    // The seller's open page flips live, without a reload.
    await expect(seller.page.getByText('Sold to Bob Buyer for $800 with Buy It Now')).toBeVisible();
    await expect(priceCard(seller.page).locator('.price-label')).toHaveText(/^Sold For$/i);
    await expect(priceCard(seller.page)).toContainText('Sold with Buy It Now');
    await expect(timer(seller.page)).toBeHidden();
    const ended = priceCard(seller.page).locator('.auction-ended time');
    const endedAt = Date.parse((await ended.getAttribute('datetime')) ?? '');
    vitestExpect(Math.abs(endedAt - boughtAt)).toBeLessThan(60_000);
    vitestExpect(endedAt).toBeLessThan(endsAt.getTime() - DAY_MS);
    await expect(seller.page.getByText('1 bid was placed')).toBeVisible();

    // The buyer reads it as theirs.
    await expect(bob.page.getByText('You won this auction for $800 with Buy It Now')).toBeVisible();
    vitestExpect(await bob.page.getByText('Sold to Bob Buyer').count()).toBe(0);

    // The seller's bell: the sale, not a "new bid" of the purchase price.
    const bell = await openBell(seller.page);
    await expect(bell).toContainText(`Your auction "${title}" sold for $800.00 with Buy It Now.`);
    vitestExpect(await bell.innerText()).not.toContain('New bid of $800.00');
    await screenshot(seller.page, 'buy it now seller bell');

    // The dashboard counts the seller's live auctions as the API does.
    const profile = (await apiAs(seller.page, server.url, 'GET', '/user/profile')) as {
      data: { statistics: { activeAuctions: number } };
    };
    vitestExpect(profile.data.statistics.activeAuctions).toBe(1);
    await seller.page.goto('/dashboard/my-auctions');
    const quick = seller.page.locator('.quick-stats div', { hasText: 'Active Auctions' });
    await expect(quick.locator('dd')).toHaveText('1');
  }, 90_000);

  test('a normal close: the winning bid, bids placed, no countdown; "You won" for the winner, "lost" in a loser\'s history, the reserve met told to the seller alone', async () => {
    const title = `Pocket watch ${Date.now().toString(36)}`;
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title,
      description: 'Silver hunter case',
      category: 'jewelry-watches',
      startingPrice: 100,
      reservePrice: 150,
      endsAt: new Date(Date.now() + 15_000),
      softClose: false,
    });
    for (const { page } of [seller, alice, bob]) await page.goto(`/auction/${auctionId}`);
    onScreen = bob.page;
    await apiAs(alice.page, server.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount: 120,
    });
    await apiAs(bob.page, server.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount: 160,
    });
    await expect(
      alice.page.getByText('Someone outbid you. Increase your bid to win!'),
    ).toBeVisible();

    for (const { page } of [seller, alice, bob])
      await eventually(
        async () => vitestExpect(await page.locator('.outcome-sold').count()).toBe(1),
        45_000,
      );
    await expect(bob.page.getByText('You won this auction for $160')).toBeVisible();
    await expect(alice.page.getByText('Sold to Bob Buyer for $160')).toBeVisible();
    for (const { page } of [seller, alice, bob]) {
      await expect(priceCard(page).locator('.price-label')).toHaveText(/^Winning Bid$/i);
      await expect(page.getByText('2 bids were placed')).toBeVisible();
      vitestExpect(await page.getByText('bids are live').count()).toBe(0);
      await expect(timer(page)).toBeHidden();
      await expect(priceCard(page)).toContainText('Auction ended');
    }
    // The outbid warning is for a live auction only.
    await expect(alice.page.getByText('Someone outbid you')).toBeHidden();

    // Alice's history: her bid lost, it was not merely outbid.
    await alice.page.goto('/dashboard/history');
    const entry = alice.page.locator('.history-item', { hasText: title });
    await eventually(async () =>
      vitestExpect(
        (await entry.locator('.badge').allTextContents()).map((t) => t.trim()),
      ).toContain('lost'),
    );
    vitestExpect(await entry.locator('.badge').allTextContents()).not.toContain('outbid');
    await screenshot(alice.page, 'loser history lost');

    // The seller alone heard the reserve was met, when Bob's bid met it.
    const bell = await openBell(seller.page);
    await expect(bell).toContainText(
      `Your reserve price on "${title}" is met: the current bid is $160.00.`,
    );
    for (const { page } of [alice, bob]) {
      const theirs = await openBell(page);
      vitestExpect(await theirs.innerText()).not.toMatch(/reserve price on/);
    }
  }, 120_000);
});
