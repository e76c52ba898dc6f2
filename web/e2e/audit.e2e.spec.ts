import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test } from 'vitest';
import { apiAs, grantRole, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, expect } from './support/expect';
import { accountFor, logIn } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

describe('an auditor replays an auction in a real browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let auditor: Person;
  let stranger: Person;
  let onScreen: Page | null = null;
  let auctionId = '';
  const auditorAccount = accountFor('Dana', 'Auditor');

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    const [seller, ann, ben] = await Promise.all(
      ['Sam', 'Ann', 'Ben'].map(() => newPerson(browser, server.url)),
    );
    auditor = await newPerson(browser, server.url);
    stranger = ann!;
    await registerThroughApi(seller!.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(ann!.page, server.url, accountFor('Ann', 'Archer'));
    await registerThroughApi(ben!.page, server.url, accountFor('Ben', 'Baker'));
    const created = await apiAs(seller!.page, server.url, 'POST', '/auction/createAuction', {
      title: 'Grandfather clock',
      description: 'Oak case, 1890s',
      category: 'antiques',
      startingPrice: 100,
      auctionDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    auctionId = (created.auction as { _id: string })._id;
    for (const [person, amount] of [
      [ann!, 150],
      [ben!, 200],
      [ann!, 260],
    ] as const)
      await apiAs(person.page, server.url, 'POST', '/bid/placeBid', {
        productId: auctionId,
        bidAmount: amount,
      });
    await registerThroughApi(auditor.page, server.url, auditorAccount);
    await apiAs(auditor.page, server.url, 'POST', '/auth/logout');
    grantRole(server.dataDir, auditorAccount.email, 'Auditor');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  test('the auditor steps through the timeline and sees the board as it stood', async () => {
    const { page } = auditor;
    onScreen = page;
    await logIn(page, auditorAccount);
    await page.goto(`/auction/${auctionId}`);
    await page.getByRole('link', { name: 'Audit timeline' }).click();
    await expect(page).toHaveURL(new RegExp(`/audit/auction/${auctionId}$`));

    const events = page.getByRole('list', { name: 'Events' }).getByRole('listitem');
    await expect(events).toHaveCount(4);
    await expect(page.getByTestId('audit-step')).toContainText('Revision 3 of 3');
    await expect(page.getByTestId('audit-current-bid')).toHaveText('$260');
    await expect(page.getByTestId('audit-leader')).toHaveText('Ann Archer');

    await page.getByRole('button', { name: /Previous/ }).click();
    await expect(page.getByTestId('audit-step')).toContainText('Revision 2 of 3');
    await expect(page.getByTestId('audit-current-bid')).toHaveText('$200');
    await expect(page.getByTestId('audit-leader')).toHaveText('Ben Baker');
    await expect(page.getByRole('list', { name: 'Bid board' }).getByRole('listitem')).toHaveCount(
      2,
    );

    await events.nth(0).getByRole('button').click();
    await expect(page.getByTestId('audit-step')).toContainText('Auction created');
    await expect(page.getByTestId('audit-current-bid')).toHaveText('$0');
    await expect(page.getByText('No standing bids at this step.')).toBeVisible();

    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('region', { name: 'Verification' })).toContainText(
      'Verified: the record is intact',
    );
  });

  test('a bidder who is not the seller cannot open the timeline', async () => {
    const { page } = stranger;
    onScreen = page;
    await page.goto(`/auction/${auctionId}`);
    await expect(page.getByRole('heading', { name: 'Grandfather clock' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Audit timeline' })).toBeHidden();
    await page.goto(`/audit/auction/${auctionId}`);
    await expect(
      page.getByText('Only auditors, admins and the seller may see this timeline.'),
    ).toBeVisible();
  });
});
