import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, expect } from './support/expect';
import { accountFor } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/** More auctions than a page (20): the lists load the rest as the user scrolls. */
const COUNT = 27;

describe('long lists load as the user scrolls, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
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
