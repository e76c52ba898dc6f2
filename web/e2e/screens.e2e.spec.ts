import { fixedCategories } from '@auction/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Locator, type Page, eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

const PHONES = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
] as const;
const DESKTOP = { width: 1280, height: 800 } as const;

/** The spec's eight, in its order (pinned in packages/contracts/src/categories.unit.spec.ts). */
const FIXED = fixedCategories.map(({ name }) => name);

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** Where an element is drawn, in CSS pixels of the layout viewport. */
const boxOf = (locator: Locator): Promise<Box> =>
  locator.first().evaluate((element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  });

/** The visible part of the page: the viewport without its scrollbars. */
const viewportOf = (page: Page): Promise<Box> =>
  page.evaluate(() => ({
    left: 0,
    top: 0,
    right: document.documentElement.clientWidth,
    bottom: window.innerHeight,
  }));

const expectInside = (inner: Box, outer: Box, what: string) => {
  const where = `${what}: ${JSON.stringify(inner)} in ${JSON.stringify(outer)}`;
  vitestExpect(inner.left, where).toBeGreaterThanOrEqual(outer.left - 0.5);
  vitestExpect(inner.top, where).toBeGreaterThanOrEqual(outer.top - 0.5);
  vitestExpect(inner.right, where).toBeLessThanOrEqual(outer.right + 0.5);
  vitestExpect(inner.bottom, where).toBeLessThanOrEqual(outer.bottom + 0.5);
};

/** The browser's local calendar date `days` from now, as a date input holds it. */
const browserDateAfter = (page: Page, days: number) =>
  page.evaluate((days) => {
    const date = new Date();
    date.setDate(date.getDate() + days);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }, days);

describe('screens on phone and desktop, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let onScreen: Page | null = null;
  const stamp = Date.now().toString(36);
  const sellerAccount = accountFor('Sofia', 'Seller');
  const userCategory = `Zz Vintage Radios ${stamp}`;
  const earlyCategory = `Aa Board Games ${stamp}`;
  const radioTitle = `Valve radio ${stamp}`;

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    seller = await newPerson(browser, server.url, DESKTOP);
    const bidder = await newPerson(browser, server.url, DESKTOP);
    await registerThroughApi(seller.page, server.url, sellerAccount);
    await registerThroughApi(bidder.page, server.url, accountFor('Bruno', 'Bidder'));
    // Two categories users made: one sorts before every fixed name, one after.
    let categoryId = '';
    for (const name of [userCategory, earlyCategory]) {
      const created = await apiAs(seller.page, server.url, 'POST', '/auction/createCategory', {
        name,
        description: 'Made by a user',
      });
      if (name === userCategory) categoryId = (created.category as { _id: string })._id;
    }
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title: radioTitle,
      description: 'A 1950s valve radio that still plays.',
      category: categoryId,
      startingPrice: 100,
      endsAt: new Date(Date.now() + 5 * 86_400_000),
    });
    // A bid: the seller's bell holds a notification with a message to read.
    await apiAs(bidder.page, server.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount: 150,
    });
    await bidder.context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
    await onScreen?.close();
    onScreen = null;
  });

  /** The seller's session in a new tab of the given size. */
  const sellerAt = async (viewport: { width: number; height: number }): Promise<Page> => {
    const page = await seller.context.newPage();
    await page.setViewportSize(viewport);
    onScreen = page;
    return page;
  };

  test.each([...PHONES, DESKTOP])(
    'the notification panel fits a $width×$height screen, heading and messages whole',
    async (viewport) => {
      const page = await sellerAt(viewport);
      await page.goto('/auctions');
      await page.getByRole('button', { name: /^Notifications/ }).click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      const message = panel.getByRole('listitem').filter({ hasText: radioTitle }).locator('p');
      await expect(message).toBeVisible();
      const screen = await viewportOf(page);
      expectInside(await boxOf(panel), screen, 'panel');
      expectInside(
        await boxOf(panel.getByRole('heading', { name: 'Notifications' })),
        screen,
        'heading',
      );
      expectInside(await boxOf(message), screen, 'message');
      for (const name of ['Mark all as read', 'Clear all'])
        expectInside(await boxOf(panel.getByRole('button', { name })), screen, name);
    },
  );

  test.each(PHONES)(
    'every dashboard tab, the active one above all, shows whole at $width px',
    async (viewport) => {
      const page = await sellerAt(viewport);
      await page.goto('/dashboard/create-auction');
      const tabs = page.getByRole('complementary', { name: 'Dashboard' }).getByRole('link');
      const active = page.locator('.sidebar-nav a[aria-current="page"]');
      await expect(active).toHaveText('Create Auction');
      const screen = await viewportOf(page);
      const nav = await boxOf(page.locator('.sidebar-nav'));
      vitestExpect(await tabs.count()).toBe(7);
      for (const tab of await tabs.all()) {
        const name = await tab.innerText();
        const box = await boxOf(tab);
        expectInside(box, screen, name);
        expectInside(box, nav, name);
        // Its text is not clipped inside it either.
        const clipped = await tab.evaluate((element) => element.scrollWidth > element.clientWidth);
        vitestExpect(clipped, name).toBe(false);
      }
    },
  );

  test('All Auctions: the search box says what it searches and lines up with the category select', async () => {
    const page = await sellerAt(DESKTOP);
    await page.goto('/auctions');
    const search = page.getByLabel('Search by title');
    const select = page.getByLabel('Category');
    await expect(page.getByText(radioTitle)).toBeVisible();
    const [searchBox, selectBox] = [await boxOf(search), await boxOf(select)];
    vitestExpect(Math.abs(searchBox.top - selectBox.top), 'tops').toBeLessThanOrEqual(1);
    vitestExpect(Math.abs(searchBox.bottom - selectBox.bottom), 'bottoms').toBeLessThanOrEqual(1);
    vitestExpect(await search.getAttribute('placeholder')).toBe('Search by title');
    for (const viewport of PHONES) {
      await page.setViewportSize(viewport);
      const screen = await viewportOf(page);
      expectInside(await boxOf(search), { ...screen, bottom: Infinity }, 'search');
      expectInside(await boxOf(select), { ...screen, bottom: Infinity }, 'select');
    }
  });

  test("All Auctions offers the categories users made, after the spec's eight, and filters by them", async () => {
    const page = await sellerAt(DESKTOP);
    await page.goto('/auctions');
    const select = page.getByLabel('Category');
    await eventually(async () =>
      vitestExpect(await select.locator('option').allInnerTexts()).toContain(userCategory),
    );
    const options = await select.locator('option').allInnerTexts();
    vitestExpect(options.slice(0, 9)).toEqual(['All Categories', ...FIXED]);
    vitestExpect(options.slice(9)).toEqual([earlyCategory, userCategory]);
    await select.selectOption({ label: userCategory });
    await expect(page).toHaveURL(/[?&]category=Zz\+Vintage\+Radios/);
    await expect(page.getByText(radioTitle)).toBeVisible();
    await expect(page.getByRole('status').getByText('1 auction')).toBeVisible();
    // A link to the filter shows it chosen.
    await page.reload();
    await expect(page.getByText(radioTitle)).toBeVisible();
    await eventually(async () => vitestExpect(await select.inputValue()).toBe(userCategory));
  });

  const fillAuction = async (page: Page, title: string) => {
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('Listed from the create form.');
    await page.getByLabel('Category').selectOption({ label: 'Electronics' });
    await page.getByLabel('Starting Price').fill('100');
  };

  /** The end the server recorded for the seller's auction of this title. */
  const endOf = async (page: Page, title: string): Promise<Date> => {
    const { auctions } = (await apiAs(page, server.url, 'GET', '/auction/getAuctions')) as {
      auctions: { title: string; auctionEndTime: string }[];
    };
    const found = auctions.find((auction) => auction.title === title);
    if (!found) throw new Error(`no auction ${title}`);
    return new Date(found.auctionEndTime);
  };

  test('create auction: today is offered and ends at 11:59 PM today; no date ends in 7 days', async () => {
    const page = await sellerAt(DESKTOP);
    await page.goto('/dashboard/create-auction');
    const endDate = page.getByLabel('Auction End Date');
    const today = await browserDateAfter(page, 0);
    const lateToday = await page.evaluate(() => {
      const end = new Date();
      end.setHours(23, 59, 0, 0);
      return end.getTime() - Date.now() > 15 * 60_000;
    });
    vitestExpect(await endDate.getAttribute('min')).toBe(
      lateToday ? today : await browserDateAfter(page, 1),
    );
    vitestExpect(await endDate.getAttribute('required')).toBeNull();

    // No date chosen: the hint says when it ends, 7 days from now, and so it does.
    const noDate = `No end chosen ${stamp}`;
    await fillAuction(page, noDate);
    await expect(page.getByText(/ends in 7 days/)).toBeVisible();
    const before = Date.now();
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-auctions$/);
    const sevenDays = 7 * 86_400_000;
    const defaultEnd = (await endOf(page, noDate)).getTime();
    // Within an hour either way: a change of daylight saving time keeps the time of day.
    vitestExpect(Math.abs(defaultEnd - (before + sevenDays))).toBeLessThan(3_600_000 + 60_000);
    vitestExpect(defaultEnd).toBeGreaterThan(before + sevenDays - 3_600_000 - 60_000);

    if (!lateToday) return;
    // Today: the hint says 11:59 PM, and the auction ends then, later today.
    const endsToday = `Ends today ${stamp}`;
    await page.goto('/dashboard/create-auction');
    await fillAuction(page, endsToday);
    await endDate.fill(today);
    await expect(page.getByText(/today at 11:59 PM/)).toBeVisible();
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-auctions$/);
    const end = await endOf(page, endsToday);
    const expected = await page.evaluate(() => {
      const end = new Date();
      end.setHours(23, 59, 0, 0);
      return end.toISOString();
    });
    vitestExpect(end.toISOString()).toBe(expected);
  });

  test("create auction: a refusal shows the spec's alert in the form, no native dialog, cleared on the next attempt", async () => {
    const page = await sellerAt(DESKTOP);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/dashboard/create-auction');
    const form = page.locator('form.auction-form');
    const alert = form.getByRole('alert').filter({
      hasText: 'Failed to create auction. Please try again.',
    });
    // The form judges with the server's schemas: a title holding an invisible character (a
    // zero-width space) gets the server's message under the field, and nothing is sent.
    await fillAuction(page, `Hidden\u200Bmark ${stamp}`);
    await page.getByLabel('Auction End Date').fill(await browserDateAfter(page, 3));
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(
      form.getByText('Title must not contain invisible or control characters'),
    ).toBeVisible();
    await expect(alert).toBeHidden();

    // How the prices relate is judged by the form too (the decider's rule): at the field, no alert.
    await page.getByLabel('Title').fill(`Priced below ${stamp}`);
    await page.getByLabel('Buy It Now price (optional)').fill('50');
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(
      form.getByText(
        'The Buy It Now price must be at least the starting price and the reserve price',
      ),
    ).toBeVisible();
    await expect(alert).toBeHidden();
    vitestExpect(dialogs).toEqual([]);

    // A failure no field explains (the network) shows the spec's alert in the form.
    await page.getByLabel('Buy It Now price (optional)').fill('');
    await page.route('**/api/v1/auction/createAuction', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(alert).toBeVisible();
    await page.unroute('**/api/v1/auction/createAuction');
    vitestExpect(dialogs).toEqual([]);

    // The next attempt clears it, even one the form stops before it is sent.
    await page.getByLabel('Title').fill('');
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(form.getByText('Title is required')).toBeVisible();
    await expect(alert).toBeHidden();

    await page.getByLabel('Title').fill(`Fixed title ${stamp}`);
    await page.getByLabel('Buy It Now price (optional)').fill('');
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-auctions$/);
    vitestExpect(dialogs).toEqual([]);
  });
});
