import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi, signUpAndLogIn } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

describe('the watchlist, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let watcher: Person;
  let onScreen: Page | null = null;
  const title = `Ship in a bottle ${Date.now().toString(36)}`;
  let auctionId = '';

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    seller = await newPerson(browser, server.url);
    watcher = await newPerson(browser, server.url);
    await signUpAndLogIn(seller.page, accountFor('Sam', 'Seller'));
    await signUpAndLogIn(watcher.page, accountFor('Wendy', 'Watcher'));
    // Ends in 40 seconds, unextended: its end, and the watcher's notice of it, come in the test.
    auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title,
      description: 'A three-masted schooner, hand built',
      category: 'antiques',
      startingPrice: 120,
      endsAt: new Date(Date.now() + 40_000),
      softClose: false,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  test('a guest sees no star; a signed-in user stars an auction from All Auctions', async () => {
    const guest = await newPerson(browser, server.url);
    await guest.page.goto(`/auction/${auctionId}`);
    await expect(guest.page.getByRole('heading', { name: title })).toBeVisible();
    vitestExpect(await guest.page.getByRole('button', { name: `Watch ${title}` }).count()).toBe(0);
    await guest.context.close();

    const { page } = watcher;
    onScreen = page;
    await page.goto('/auctions');
    const star = page.getByRole('button', { name: `Watch ${title}` });
    await expect(star).toBeVisible();
    await star.click();
    await expect(page.getByText('Added to your watchlist')).toBeVisible();
    const starred = page.getByRole('button', { name: `Unwatch ${title}` });
    await expect(starred).toBeVisible();
    vitestExpect(await starred.getAttribute('aria-pressed')).toBe('true');
  });

  test('the auction is in the Watchlist tab, counted, and starred on its page', async () => {
    const { page } = watcher;
    onScreen = page;
    await page.goto('/dashboard/my-profile');
    await page.getByRole('link', { name: 'Watchlist' }).click();
    await expect(page).toHaveURL(/\/dashboard\/watchlist$/);
    await expect(page.getByRole('heading', { name: 'Watchlist', level: 1 })).toBeVisible();
    const list = page.getByRole('list', { name: 'Watched auctions' });
    await expect(list.getByRole('heading', { name: title })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    // The profile's statistics count it (Watch List).
    await page.goto('/dashboard/my-profile');
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await expect(page.locator('.stat-card', { hasText: 'Watch List' })).toContainText('1');
    await page.goto(`/auction/${auctionId}`);
    await expect(page.getByRole('button', { name: `Unwatch ${title}` })).toBeVisible();
  });

  test('the watcher is told when the auction ends, live, in the bell', async () => {
    const { page } = watcher;
    onScreen = page;
    await page.goto('/dashboard/watchlist');
    await expect(page.getByRole('heading', { name: 'Watchlist', level: 1 })).toBeVisible();
    // The end is up to 40 s away: the notice arrives over the socket, without a reload.
    await eventually(
      async () =>
        vitestExpect(await page.getByTestId('unread-count').first().innerText()).toBe('1'),
      60_000,
    );
    await page.getByRole('button', { name: /Notifications/ }).click();
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      `"${title}", on your watchlist, has ended without a winner.`,
    );
  }, 90_000);
});
