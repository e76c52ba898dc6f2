import { randomUUID } from 'node:crypto';
import { type Page, expect } from './expect';
import { gradientPng } from './images';

export interface Account {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly password: string;
}

export const accountFor = (firstName: string, lastName: string): Account => ({
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`,
  password: 'Secret123',
});

/** Signs up through the form, with a photo when given, and lands on /login. */
export const signUp = async (page: Page, account: Account, photo?: Buffer): Promise<void> => {
  await page.goto('/signup');
  if (photo)
    await page
      .getByLabel('Profile Photo')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
  await page.getByLabel('First Name').fill(account.firstName);
  await page.getByLabel('Last Name').fill(account.lastName);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
};

/** Logs in through the form and lands on the profile (or where the login was asked for). */
export const logIn = async (
  page: Page,
  account: Account,
  landing: RegExp = /\/dashboard\/my-profile$/,
): Promise<void> => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(landing);
};

export const signUpAndLogIn = async (page: Page, account: Account, photo?: Buffer) => {
  await signUp(page, account, photo);
  await logIn(page, account);
};

export const samplePhoto = (): Buffer => gradientPng(96, [79, 70, 229], [236, 72, 153]);
export const sampleItemPhoto = (): Buffer => gradientPng(240, [250, 204, 21], [14, 165, 233]);

/** Creates an auction through the API as the page's user (for what the form cannot set, such as an end a few seconds ahead). */
export const createAuctionThroughApi = async (
  page: Page,
  baseURL: string,
  auction: {
    title: string;
    description: string;
    category: string;
    startingPrice: number;
    endsAt: Date;
    /** The server's default (off) unless set. */
    softClose?: boolean;
    /** The server's default (`one-dollar`) unless set. */
    increments?: 'one-dollar' | 'table';
    /** Dollars; none unless set. */
    reservePrice?: number;
    buyNowPrice?: number;
  },
): Promise<string> => {
  const response = await page.request.post('/api/v1/auction/createAuction', {
    headers: { Origin: baseURL },
    data: {
      title: auction.title,
      description: auction.description,
      category: auction.category,
      startingPrice: auction.startingPrice,
      auctionDate: auction.endsAt.toISOString(),
      ...(auction.softClose === undefined ? {} : { softClose: auction.softClose }),
      ...(auction.increments === undefined ? {} : { increments: auction.increments }),
      ...(auction.reservePrice === undefined ? {} : { reservePrice: auction.reservePrice }),
      ...(auction.buyNowPrice === undefined ? {} : { buyNowPrice: auction.buyNowPrice }),
    },
  });
  const body = (await response.json()) as { success: boolean; auction?: { _id: string } };
  if (!response.ok() || !body.auction) throw new Error(`createAuction: ${JSON.stringify(body)}`);
  return body.auction._id;
};
