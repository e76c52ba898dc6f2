import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, expect } from './support/expect';
import { type Account, accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/**
 * The real server stopped (SIGTERM) and started again on its port and data directory while a
 * page is open: the page says it may be out of date, never "Live", and once the server is back
 * it shows what happened meanwhile without a reload. A failed search is an error, not "nothing".
 */
describe('a page open while the server goes down and comes back, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let viewer: Person;
  let rival: Person;
  const rivalAccount: Account = accountFor('Rita', 'Rival');
  let onScreen: Page | null = null;
  const title = `Pewter jug ${Date.now().toString(36)}`;
  let auctionId = '';
  /** The server is halted: a failed test restarts it, so the next test starts with it running. */
  let down = false;
  const halt = async () => {
    down = true;
    await server.halt();
  };
  const restart = async () => {
    await server.restart();
    down = false;
  };

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    [seller, viewer, rival] = await Promise.all([
      newPerson(browser, server.url),
      newPerson(browser, server.url),
      newPerson(browser, server.url),
    ]);
    await registerThroughApi(seller.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(viewer.page, server.url, accountFor('Vera', 'Viewer'));
    await registerThroughApi(rival.page, server.url, rivalAccount);
    auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title,
      description: 'Georgian, dented',
      category: 'antiques',
      startingPrice: 100,
      endsAt: new Date(Date.now() + 3_600_000),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
    if (down) await restart();
  });

  const rivalBids = async (bidAmount: number) => {
    // The session store is on disk, but a fresh login keeps the step independent of it.
    await apiAs(rival.page, server.url, 'POST', '/auth/login', {
      email: rivalAccount.email,
      password: rivalAccount.password,
    });
    await apiAs(rival.page, server.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount,
    });
  };

  const currentBid = (page: Page) =>
    page.getByRole('region', { name: 'Current Bid' }).locator('.price-value');
  const liveBadge = (page: Page) => page.locator('.live-bids-header .live-dot');
  const statusBadge = (page: Page) => page.locator('.detail-tags .badge').first();
  const outOfDate = (page: Page) =>
    page.getByRole('status').filter({ hasText: 'The price shown may be out of date.' });

  /** Stops the server and waits until the page has spent its tries and says live updates paused. */
  const cutOff = async (page: Page, shot?: string) => {
    await halt();
    // At once, while the socket tries again: out of date, and nothing says "Live".
    await expect(outOfDate(page)).toBeVisible();
    await expect(liveBadge(page)).toHaveText(/^(Reconnecting…|Updates paused)$/i);
    await expect(statusBadge(page)).toHaveText(/^(Reconnecting…|Updates paused)$/i);
    // The spec's five tries, 1 to 5 s apart: about 8 to 25 s.
    await expect(page.getByRole('button', { name: 'Reconnect' })).toBeVisible(40_000);
    await expect(outOfDate(page)).toContainText('Live updates are paused.');
    await expect(liveBadge(page)).toHaveText(/^Updates paused$/i);
    if (shot) await screenshot(page, shot);
  };

  /** The server back, a rival's bid made while the page heard nothing, and the page still paused. */
  const backWithRivalBid = async (page: Page, bidAmount: number, before: string) => {
    await restart();
    await rivalBids(bidAmount);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(currentBid(page)).toContainText(before);
    await expect(page.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  };

  const showsLive = async (page: Page, price: string) => {
    await expect(currentBid(page)).toHaveText(price, 30_000);
    await expect(liveBadge(page)).toHaveText(/^live$/i);
    await expect(statusBadge(page)).toHaveText(/^live$/i);
    await expect(outOfDate(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(0);
  };

  test('the auction page says it may be out of date while cut off, and shows the bids made meanwhile once back, without a reload', async () => {
    const { page, context } = viewer;
    onScreen = page;
    await page.goto(`/auction/${auctionId}`);
    await rivalBids(120);
    await showsLive(page, '$120');
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    // Back online (the browser's `online` event) tries again by itself.
    await cutOff(page, 'outage: the auction page while live updates are paused');
    await backWithRivalBid(page, 150, '$120');
    await context.setOffline(true);
    await context.setOffline(false);
    await showsLive(page, '$150');
    await expect(
      page.getByRole('listitem').filter({ hasText: '$150' }).filter({ hasText: 'Rita Rival' }),
    ).toBeVisible();

    // The Reconnect button does too.
    await cutOff(page);
    await backWithRivalBid(page, 175, '$150');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await showsLive(page, '$175');

    vitestExpect(
      await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);
  });

  test('a search while the server is down shows an error with Retry, not "No auctions found"', async () => {
    // A guest: no socket, whose reconnect would fetch the list again before Retry is pressed.
    const { page } = await newPerson(browser, server.url);
    onScreen = page;
    await page.goto('/auctions');
    await expect(page.getByRole('heading', { name: title })).toBeVisible();

    await halt();
    await page.getByLabel('Search by title').fill('jug');
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load auctions.' });
    await expect(failed).toBeVisible();
    await expect(page.getByText('No auctions found.')).toHaveCount(0);
    await expect(page.getByText('No Auctions Currently Present')).toHaveCount(0);

    await restart();
    await server.whenReady();
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: title })).toBeVisible(30_000);
    await expect(failed).toHaveCount(0);
  });
});
