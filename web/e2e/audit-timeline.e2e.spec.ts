import type { AuditEvent } from '@auction/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, test, expect as vitestExpect } from 'vitest';
import { apiAs, grantRole, registerThroughApi } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { type Page, expect } from './support/expect';
import { accountFor, logIn } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/** The value a `datetime-local` input takes for an instant, in the browser's (and our) zone. */
const localInput = (iso: string): string => {
  const ms = Date.parse(iso);
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 23);
};

const MS_TIME = /\d{1,2}:\d{2}:\d{2}\.\d{3}\s[AP]M/;

describe('the audit page is a timeline: scrub by revision and time, see each change', () => {
  let server: ProductServer;
  let browser: Browser;
  let auditor: Person;
  let seller: Person;
  let onScreen: Page | null = null;
  let auctionId = '';
  let events: AuditEvent[] = [];
  const auditorAccount = accountFor('Dana', 'Auditor');

  beforeAll(async () => {
    server = await startProductServer();
    browser = await launchBrowser();
    const [ann, ben, cat, dan] = await Promise.all(
      ['Ann', 'Ben', 'Cat', 'Dan'].map(() => newPerson(browser, server.url)),
    );
    const sam = await newPerson(browser, server.url);
    seller = sam;
    auditor = await newPerson(browser, server.url);
    await registerThroughApi(sam.page, server.url, accountFor('Sam', 'Seller'));
    await registerThroughApi(ann!.page, server.url, accountFor('Ann', 'Archer'));
    await registerThroughApi(ben!.page, server.url, accountFor('Ben', 'Baker'));
    await registerThroughApi(cat!.page, server.url, accountFor('Cat', 'Cooper'));
    await registerThroughApi(dan!.page, server.url, accountFor('Dan', 'Dyer'));
    const created = await apiAs(sam.page, server.url, 'POST', '/auction/createAuction', {
      title: 'Regulator clock',
      description: 'Walnut case, 1880s',
      category: 'antiques',
      startingPrice: 100,
      reservePrice: 400,
      auctionDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    auctionId = (created.auction as { _id: string })._id;
    const bid = async (person: Person, bidAmount: number, maxBidAmount?: number) => {
      const placed = await apiAs(person.page, server.url, 'POST', '/bid/placeBid', {
        productId: auctionId,
        bidAmount,
        ...(maxBidAmount === undefined ? {} : { maxBidAmount }),
      });
      return (placed.newBid as { _id: string })._id;
    };
    // All within a second or so: a minute-resolution list would read one time for all.
    const annBid = await bid(ann!, 150); // 1
    await bid(ben!, 200); // 2
    const catBid = await bid(cat!, 250, 600); // 3, and 4: the system bids Cat up to the reserve
    await apiAs(ann!.page, server.url, 'DELETE', `/bid/deleteBid/${annBid}`); // 5
    await bid(dan!, 450); // 6, and 7: Cat's maximum answers
    await apiAs(cat!.page, server.url, 'PUT', `/bid/editBid/${catBid}`, { maxBidAmount: 700 }); // 8
    await registerThroughApi(auditor.page, server.url, auditorAccount);
    await apiAs(auditor.page, server.url, 'POST', '/auth/logout');
    grantRole(server.dataDir, auditorAccount.email, 'Auditor');
    await logIn(auditor.page, auditorAccount);
    events = (await apiAs(auditor.page, server.url, 'GET', `/audit/auctions/${auctionId}/events`))
      .events as AuditEvent[];
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (onScreen) await screenshot(onScreen, task.name);
  });

  test('the auditor reads plain names, actors and ms times, scrubs to a revision and a moment, and sees the board, the diff and the maxima', async () => {
    vitestExpect(events.map((e) => e.type)).toEqual([
      'AuctionCreated',
      'BidPlaced',
      'BidPlaced',
      'BidPlaced',
      'AutomaticBidPlaced',
      'BidRetracted',
      'BidPlaced',
      'AutomaticBidPlaced',
      'BidMaximumRaised',
    ]);
    const { page } = auditor;
    onScreen = page;
    await page.goto(`/audit/auction/${auctionId}`);
    const rows = page.getByRole('list', { name: 'Events' }).getByRole('listitem');
    await expect(rows).toHaveCount(9);
    await expect(page.getByTestId('audit-step')).toContainText('Revision 8 of 8');
    await expect(rows.nth(4)).toContainText('Automatic bid · $400');
    await expect(rows.nth(4)).toContainText('System, for Cat Cooper');
    await expect(rows.nth(5)).toContainText('Bid retracted');
    await expect(rows.nth(5)).toContainText('Ann Archer');
    await expect(rows.nth(8)).toContainText('Maximum raised');
    for (let i = 0; i < 9; i++) vitestExpect(await rows.nth(i).textContent()).toMatch(MS_TIME);
    vitestExpect(await page.getByRole('list', { name: 'Events' }).textContent()).not.toMatch(
      /AutomaticBidPlaced|BidPlaced|BidRetracted/,
    );
    // The board now, with the maxima and the reserve the auditor may see.
    await expect(page.getByTestId('audit-reserve')).toHaveText('$400');
    const board = page.getByRole('list', { name: 'Bid board' });
    await expect(board.getByRole('listitem').first()).toContainText('Cat Cooper');
    await expect(board.getByRole('listitem').first()).toContainText('max $700');

    // The revision slider, by keyboard: Home, then four steps right, is Cat's automatic bid.
    const slider = page.getByRole('slider', { name: 'Revision' });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(page.getByTestId('audit-step')).toContainText('Revision 0 of 8');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    const step = page.getByTestId('audit-step');
    await expect(step).toContainText(
      'Revision 4 of 8 · Automatic bid · $400 · System, for Cat Cooper',
    );
    vitestExpect(await step.textContent()).toMatch(MS_TIME);
    await expect(page.getByTestId('audit-current-bid')).toHaveText('$400');
    await expect(page.getByTestId('audit-leader')).toHaveText('Cat Cooper');
    await expect(board.getByRole('listitem')).toHaveCount(3);
    await expect(board.getByRole('listitem').first()).toContainText('max $600');
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect(changes.getByRole('row', { name: /Current bid/ })).toContainText('$250\t$400');
    await expect(changes.getByRole('row', { name: /Cat Cooper's bid/ })).toContainText(
      '$250\t$400',
    );
    await expect(page.getByRole('region', { name: 'What this event changed' })).toContainText(
      'answering Cat Cooper',
    );
    // One step back: Cat's own bid, which set her maximum.
    await page.keyboard.press('ArrowLeft');
    await expect(step).toContainText('Revision 3 of 8 · Bid placed · $250 · Cat Cooper');
    await expect(changes.getByRole('row', { name: /Cat Cooper's maximum/ })).toContainText(
      '—\t$600',
    );
    await expect(changes.getByRole('row', { name: /Leader/ })).toContainText(
      'Ben Baker\tCat Cooper',
    );

    // A moment typed in goes through the API's ?at=: the retraction's time shows its board.
    const retraction = events[5]!;
    await page.getByLabel('Moment').fill(localInput(retraction.at!));
    await page.getByRole('button', { name: 'Show the board then' }).click();
    await expect(step).toContainText('Revision 5 of 8 · Bid retracted · $150 · Ann Archer');
    await expect(changes.getByRole('row', { name: /Ann Archer's bid/ })).toContainText('$150\t—');
    await expect(board.getByRole('listitem')).toHaveCount(2);

    // The time slider: End is the last event.
    const time = page.getByRole('slider', { name: 'Time' });
    await time.focus();
    await page.keyboard.press('End');
    await expect(step).toContainText('Revision 8 of 8 · Maximum raised');
    await expect(changes.getByRole('row', { name: /Cat Cooper's maximum/ })).toContainText(
      '$600\t$700',
    );

    // The chart of price and maxima, with the reserve.
    const chart = page.getByRole('figure', { name: 'Price and maxima over time' });
    await expect(chart).toBeVisible();
    await expect(chart).toContainText('Reserve $400');
    await expectNoAxeViolations(page);
  });

  test("the seller sees the same timeline, without the bidders' maxima", async () => {
    const { page } = seller;
    onScreen = page;
    await page.goto(`/audit/auction/${auctionId}`);
    const rows = page.getByRole('list', { name: 'Events' }).getByRole('listitem');
    await expect(rows).toHaveCount(9);
    await expect(rows.nth(4)).toContainText('System, for Cat Cooper');
    await expect(page.getByTestId('audit-reserve')).toHaveText('$400');
    await expect(page.getByRole('figure', { name: 'Price over time' })).toBeVisible();
    const slider = page.getByRole('slider', { name: 'Revision' });
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const step = page.getByTestId('audit-step');
    await expect(step).toContainText('Revision 3 of 8 · Bid placed · $250 · Cat Cooper');
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect(changes.getByRole('row', { name: /Cat Cooper's bid/ })).toContainText('—\t$250');
    await expect(page.getByTestId('audit-current-bid')).toHaveText('$250');
    vitestExpect(await changes.textContent()).not.toContain('maximum');
    await page.keyboard.press('End');
    await expect(step).toContainText('Revision 8 of 8 · Maximum raised');
    await expect(page.getByRole('region', { name: 'What this event changed' })).toContainText(
      'Nothing on the board you may see changed.',
    );
    const text = (await page.locator('main').textContent()) ?? (await page.content());
    vitestExpect(text).not.toMatch(/\$600|\$700|max \$/);
    await expectNoAxeViolations(page);
  });
});
