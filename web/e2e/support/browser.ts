import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';

/** Where each test leaves a screenshot of the screen it ends on. */
export const OUTPUT_DIR = fileURLToPath(new URL('../../test-results/e2e', import.meta.url));

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Debian's Chromium (CHROMIUM_PATH to use another), headless. */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: FLAGS,
  });

export interface Person {
  readonly context: BrowserContext;
  readonly page: Page;
}

/** A separate person: own cookies and local storage, own tab. */
export const newPerson = async (
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 900 },
): Promise<Person> => {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
};

const fileNameOf = (testName: string) =>
  testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/** Saves the page as it stands under test-results/e2e/<test name>.png. */
export const screenshot = async (page: Page, testName: string): Promise<string> => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${fileNameOf(testName)}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
};
