import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, eventually, expect } from './support/expect';
import { accountFor, createAuctionThroughApi } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/** Proxy bids, the reserve and Buy It Now, clicked through by two bidders and a seller. */
describe('bidding with secret maxima, a reserve and Buy It Now, in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let seller: Person;
  let bob: Person;
  let carol: Person;
  let onScreen: Page | null = null;

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    [seller, bob, carol] = await Promise.all([
      newPerson(browser, server.url),
      newPerson(browser, server.url),
      newPerson(browser, server.url),
    ]);
    await registerThroughApi(seller.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(bob.page, server.url, accountFor('Bob', 'Proxy'));
    await registerThroughApi(carol.page, server.url, accountFor('Carol', 'Proxy'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  const currentBid = (page: Page) =>
    page.getByRole('region', { name: 'Current Bid' }).locator('.price-value');

  /** Places a bid; one another's maximum beats at once keeps the dialog open, saying so: closed. */
  const placeBid = async (page: Page, amount: string, maximum: string, outbidAtOnce = false) => {
    await page.getByRole('button', { name: 'Place Bid' }).click();
    const dialog = page.getByRole('dialog', { name: 'Place Bid' });
    await dialog.getByLabel('Bid Amount').fill(amount);
    await dialog.getByLabel('Your maximum').fill(maximum);
    await dialog.getByRole('button', { name: 'Place Bid' }).click();
    if (outbidAtOnce) {
      await expect(dialog.getByRole('alert')).toContainText('you were outbid at once');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await expect(dialog).toBeHidden();
  };

  test('two maxima resolve live on both screens, and the winner pays the second maximum plus one increment', async () => {
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title: `Ormolu clock ${Date.now().toString(36)}`,
      description: 'French, 1840s',
      category: 'antiques',
      startingPrice: 100,
      reservePrice: 130,
      endsAt: new Date(Date.now() + 45_000),
      softClose: false,
      increments: 'table',
    });
    for (const { page } of [bob, carol, seller]) await page.goto(`/auction/${auctionId}`);
    onScreen = carol.page;
    await expect(bob.page.getByText('Reserve not met', { exact: true })).toBeVisible();
    await expect(seller.page.getByText('Your reserve: $130')).toBeVisible();
    await expect(bob.page.getByText('Your reserve')).toBeHidden();

    // Bob's maximum reaches the reserve: his bid jumps to it at once.
    await placeBid(bob.page, '100', '200');
    await expect(
      bob.page.getByText('You are the highest bidder (your maximum $200).'),
    ).toBeVisible();
    for (const { page } of [bob, carol, seller]) {
      await expect(currentBid(page)).toHaveText('$130');
      await expect(page.getByText('Reserve met', { exact: true })).toBeVisible();
    }
    // Carol never sees Bob's maximum.
    vitestExpect(await carol.page.content()).not.toContain('$200');

    // Carol bids $140 with a maximum of $180: Bob's maximum answers, one increment above hers.
    await placeBid(carol.page, '140', '180', true);
    await expect(carol.page.getByText(/you were outbid at once/)).toBeVisible();
    for (const { page } of [bob, carol, seller]) {
      await expect(currentBid(page)).toHaveText('$182.50');
      const list = page.getByRole('list', { name: 'Live Auction' });
      await expect(list.getByRole('listitem').first()).toContainText('Bob Proxy');
      await expect(list.getByRole('listitem').first()).toContainText('Automatic');
    }
    await expect(
      carol.page.getByText('Someone outbid you. Increase your bid to win!'),
    ).toBeVisible();
    vitestExpect(await bob.page.content()).not.toContain('$180');

    // Bob raises his maximum: his price stays where it is, on every screen.
    await bob.page.getByRole('button', { name: 'Raise maximum' }).click();
    const raise = bob.page.getByRole('dialog', { name: 'Raise your maximum' });
    await raise.getByLabel('New maximum').fill('260');
    await raise.getByRole('button', { name: 'Raise maximum' }).click();
    await expect(
      bob.page.getByText('You are the highest bidder (your maximum $260).'),
    ).toBeVisible();
    await expect(currentBid(carol.page)).toHaveText('$182.50');

    // The close: sold to Bob at Carol's maximum plus the $2.50 increment, on both screens (Bob
    // reads his win as his).
    for (const [{ page }, outcome] of [
      [bob, 'You won this auction for $182.50'],
      [carol, 'Sold to Bob Proxy for $182.50'],
    ] as const) {
      await eventually(
        async () => vitestExpect(await page.getByText(outcome).count()).toBe(1),
        60_000,
      );
    }
  }, 120_000);

  test('Buy It Now, offered until the first bid, sells at once after a confirmation', async () => {
    const title = `Tin robot ${Date.now().toString(36)}`;
    const auctionId = await createAuctionThroughApi(seller.page, server.url, {
      title,
      description: 'Wind-up, 1950s',
      category: 'antiques',
      startingPrice: 100,
      buyNowPrice: 300,
      endsAt: new Date(Date.now() + 3_600_000),
    });
    const { page } = carol;
    onScreen = page;
    await page.goto(`/auction/${auctionId}`);
    await bob.page.goto(`/auction/${auctionId}`);
    await page.getByRole('button', { name: 'Buy It Now for $300' }).click();
    const confirm = page.getByRole('dialog', { name: 'Buy It Now' });
    await expect(confirm).toContainText('The auction ends at once and you pay this price.');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expect(page.getByText('Purchased with Buy It Now!')).toBeVisible();
    await expect(page.getByText('You won this auction for $300 with Buy It Now')).toBeVisible();
    await expect(bob.page.getByText('Sold to Carol Proxy for $300 with Buy It Now')).toBeVisible();
    for (const screen of [page, bob.page])
      await expect(screen.getByRole('button', { name: /Buy It Now for/ })).toBeHidden();
    await page.goto('/dashboard/auctions-won');
    await expect(page.getByRole('listitem').filter({ hasText: title })).toContainText('$300');
  }, 60_000);

  test('the seller sets a reserve and a Buy It Now price in the create form, then lowers the reserve', async () => {
    const { page } = seller;
    onScreen = page;
    const title = `Music box ${Date.now().toString(36)}`;
    await page.goto('/dashboard/create-auction');
    await page.getByLabel('Reserve price (optional)').fill('150');
    await page.getByLabel('Buy It Now price (optional)').fill('120');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('Swiss cylinder music box');
    await page.getByLabel('Category').selectOption({ label: 'Antiques' });
    await page.getByLabel('Starting Price').fill('100');
    await page.getByRole('button', { name: 'Create Auction' }).click();
    // The server's rule, on the field it is about.
    await expect(
      page.getByText(
        'The Buy It Now price must be at least the starting price and the reserve price',
      ),
    ).toBeVisible();
    await page.getByLabel('Buy It Now price (optional)').fill('400');
    await page.getByRole('button', { name: 'Create Auction' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-auctions$/);

    // The edit form shows the reserve to its seller, who lowers it.
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await expect(page.getByLabel('Reserve price (optional)')).toHaveValue('150');
    await expect(page.getByLabel('Buy It Now price (optional)')).toHaveValue('400');
    await page.getByLabel('Reserve price (optional)').fill('120');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-auctions$/);
    const mine = (await apiAs(page, server.url, 'GET', '/auction/getAuctions')) as {
      auctions: { _id: string; title: string }[];
    };
    const created = mine.auctions.find((auction) => auction.title === title);
    await page.goto(`/auction/${created?._id ?? 'missing'}`);
    await expect(page.getByText('Your reserve: $120')).toBeVisible();
    await expect(page.getByText('Reserve not met', { exact: true })).toBeVisible();
  }, 60_000);
});
