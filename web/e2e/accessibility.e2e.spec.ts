import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, grantRole, registerThroughApi } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, eventually, expect } from './support/expect';
import { accountFor, logIn } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/**
 * axe-core (WCAG 2 A and AA) on the main pages, populated through the API: a live auction with
 * bids and a watcher, a closed one with a winner; and the bid dialog keeps the keyboard inside.
 */
describe('the main pages pass axe-core, and dialogs keep focus, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let bidder: Person;
  let auditor: Person;
  let onScreen: Page | null = null;
  let liveId = '';
  let closedId = '';
  const sellerAccount = accountFor('Sam', 'Seller');
  const bidderAccount = accountFor('Ann', 'Archer');
  const auditorAccount = accountFor('Dana', 'Auditor');

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    seller = await newPerson(browser, server.url);
    bidder = await newPerson(browser, server.url);
    auditor = await newPerson(browser, server.url);
    const ben = await newPerson(browser, server.url);
    await registerThroughApi(seller.page, server.url, sellerAccount);
    await registerThroughApi(bidder.page, server.url, bidderAccount);
    await registerThroughApi(ben.page, server.url, accountFor('Ben', 'Baker'));
    const create = async (title: string, endsAt: Date) => {
      const created = await apiAs(seller.page, server.url, 'POST', '/auction/createAuction', {
        title,
        description: 'Oak case, 1890s',
        category: 'antiques',
        startingPrice: 100,
        reservePrice: 150,
        auctionDate: endsAt.toISOString(),
      });
      return (created.auction as { _id: string })._id;
    };
    liveId = await create('Grandfather clock', new Date(Date.now() + 3 * 86_400_000));
    closedId = await create('Pocket watch', new Date(Date.now() + 4_000));
    for (const [person, id, amount] of [
      [bidder, liveId, 150],
      [ben, liveId, 200],
      [bidder, liveId, 260],
      [bidder, closedId, 180],
    ] as const)
      await apiAs(person.page, server.url, 'POST', '/bid/placeBid', {
        productId: id,
        bidAmount: amount,
      });
    await apiAs(bidder.page, server.url, 'POST', `/auction/watch/${liveId}`);
    await ben.context.close();
    await registerThroughApi(auditor.page, server.url, auditorAccount);
    await apiAs(auditor.page, server.url, 'POST', '/auth/logout');
    grantRole(server.dataDir, auditorAccount.email, 'Auditor');
    await logIn(auditor.page, auditorAccount);
    // The short auction has closed (sold to Ann) before the pages are checked.
    await eventually(async () => {
      const view = await apiAs(
        seller.page,
        server.url,
        'GET',
        `/auction/fetchSpecificAuction?auctionId=${closedId}`,
      );
      vitestExpect(JSON.stringify(view)).toMatch(/"status":"(Sold|Expired)"/);
    }, 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  test('home page: no axe violations', async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Grandfather clock')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('auctions page: no axe violations', async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto('/auctions');
    await expect(page.getByText('Grandfather clock')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('auction page (bids, a watcher, the leader signed in): no axe violations', async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto(`/auction/${liveId}`);
    await expect(page.getByRole('heading', { name: 'Grandfather clock' })).toBeVisible();
    await expect(page.getByText('Ben Baker').first()).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('closed auction page: no axe violations', async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto(`/auction/${closedId}`);
    await expect(page.getByRole('heading', { name: 'Pocket watch' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("dashboard (the seller's auctions, one closed): no axe violations", async () => {
    const { page } = seller;
    onScreen = page;
    await page.goto('/dashboard/my-auctions');
    // The cards' headings: the sales chart's table names the sold one too, folded away.
    await expect(page.getByRole('heading', { name: 'Grandfather clock' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pocket watch' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("dashboard (the bidder's watchlist): no axe violations", async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto('/dashboard/watchlist');
    await expect(page.getByText('Grandfather clock')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('audit page: no axe violations', async () => {
    const { page } = auditor;
    onScreen = page;
    await page.goto(`/audit/auction/${liveId}`);
    await expect(page.getByText('Ben Baker').first()).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('the bid dialog keeps Tab and Shift+Tab inside; Escape closes it and focus returns', async () => {
    const { page } = bidder;
    onScreen = page;
    await page.goto(`/auction/${liveId}`);
    const opener = page.getByRole('button', { name: 'Place Bid' }).first();
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Place Bid' });
    await expect(dialog).toBeVisible();
    const insideDialog = () =>
      page.evaluate(() => {
        const box = document.querySelector('[role="dialog"]');
        return Boolean(box && document.activeElement && box.contains(document.activeElement));
      });
    // Round the dialog twice each way: focus never leaves it (for the footer or the page).
    const controls = await dialog
      .locator('a[href], button:not([disabled]), input:not([disabled]), select, textarea')
      .count();
    vitestExpect(controls).toBeGreaterThan(1);
    for (let i = 0; i < controls * 2 + 1; i++) {
      await page.keyboard.press('Tab');
      vitestExpect(await insideDialog(), `after Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < controls * 2 + 1; i++) {
      await page.keyboard.press('Shift+Tab');
      vitestExpect(await insideDialog(), `after Shift+Tab ${i + 1}`).toBe(true);
    }
    await screenshot(page, 'bid dialog with focus kept inside');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    vitestExpect(
      await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''),
    ).toContain('Place Bid');
  });
});
