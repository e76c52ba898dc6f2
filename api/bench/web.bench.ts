/**
 * The web app's first load on a slow phone: the real server (api/src/main.ts as a child process,
 * as `npm start` runs it) serving a production build, opened in headless Chromium (Debian's, or
 * CHROMIUM_PATH) with a cold cache, over CDP network throttling of a slow-4G phone (150 ms RTT,
 * 1.6 Mbps down, 750 Kbps up) and 4x CPU throttling, at 390x844. Two pages: the home page and an
 * auction page (seeded through the API: six lots, bids on one). Per page, the median of `--runs`:
 *   fcpMs     first-contentful-paint (Performance API), from navigation start
 *   lcpMs     the last largest-contentful-paint seen once the page's content is shown
 *   bytes     bytes on the wire (headers and bodies, as CDP's encodedDataLength counts them)
 *   jsBytes   of which scripts
 *   requests  responses received
 * One JSON line. Run it on two builds to compare them (e.g. main's, copied aside, and this one's):
 *
 *   npm run bench:web -- [--quick] [--web-dir web/dist] [--runs 5] [--label name]
 *   (--quick: 3 runs; the build is not made here: `npm run build` first)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startChildServer } from '../src/testing/child-server';
import { Http, createLot, round, signUpAndLogIn } from './bench-support';

const { values } = parseArgs({
  options: {
    'web-dir': { type: 'string' },
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    label: { type: 'string' },
  },
});
const REPO = resolve(import.meta.dirname, '../..');
const webDir = resolve(values['web-dir'] ?? join(REPO, 'web/dist'));
const runs = Number(values.runs ?? (values.quick ? 3 : 5));

/** A slow-4G phone, as Lighthouse's mobile preset throttles one. */
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 390, height: 844 };

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const limit = '1000000';
const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
const server = await startChildServer({
  DATA_DIR: dataDir,
  WEB_DIR: webDir,
  RATE_LIMIT_LOGIN: limit,
  RATE_LIMIT_SIGNUP: limit,
  RATE_LIMIT_BIDS: limit,
  RATE_LIMIT_AUCTIONS: limit,
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

try {
  const http = new Http(new URL(server.url), 4);
  const seller = await signUpAndLogIn(http);
  const lots: string[] = [];
  for (let i = 1; i <= 6; i++) lots.push(await createLot(http, seller.cookie, `Bench lot ${i}`));
  const auctionId = lots[0] as string;
  for (let i = 0; i < 3; i++) {
    const bidder = await signUpAndLogIn(http);
    const reply = await http.send('POST', '/bid/placeBid', bidder.cookie, {
      productId: auctionId,
      bidAmount: 100 + 10 * (i + 1),
    });
    if (reply.status !== 201) throw new Error(`bid: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  http.agent.destroy();

  /** One cold load of `path`, until `shown` is visible; its figures. */
  const load = async (path: string, shown: string) => {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', NETWORK);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      const types = new Map<string, string>();
      let bytes = 0;
      let jsBytes = 0;
      let requests = 0;
      cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
      cdp.on('Network.loadingFinished', (event) => {
        requests += 1;
        bytes += event.encodedDataLength;
        if (types.get(event.requestId) === 'Script') jsBytes += event.encodedDataLength;
      });
      // The page's own code, as text: this file is compiled for node, not for the browser.
      await page.addInitScript({
        content: `new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) window.__lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });`,
      });
      await page.goto(`${server.url}${path}`, { waitUntil: 'load', timeout: 120_000 });
      await page.locator(shown).first().waitFor({ timeout: 120_000 });
      await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => undefined);
      const paint = await page.evaluate<{ fcp: number; lcp: number }>(`({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        lcp: window.__lcp ?? NaN,
      })`);
      return { fcpMs: paint.fcp, lcpMs: paint.lcp, bytes, jsBytes, requests };
    } finally {
      await context.close();
    }
  };

  const measure = async (path: string, shown: string) => {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await load(path, shown));
    return {
      path: path.replace(auctionId, ':id'),
      fcpMs: round(median(samples.map((s) => s.fcpMs)), 0),
      lcpMs: round(median(samples.map((s) => s.lcpMs)), 0),
      bytes: median(samples.map((s) => s.bytes)),
      jsBytes: median(samples.map((s) => s.jsBytes)),
      requests: median(samples.map((s) => s.requests)),
      fcpSamplesMs: samples.map((s) => round(s.fcpMs, 0)),
    };
  };

  const home = await measure('/', 'h1');
  const auction = await measure(`/auction/${auctionId}`, 'h1:has-text("Bench lot 1")');
  console.log(
    JSON.stringify({
      bench: 'web',
      label: values.label ?? null,
      webDir,
      runs,
      network: { rttMs: NETWORK.latency, downMbps: 1.6, upKbps: 750 },
      cpuSlowdown: CPU_SLOWDOWN,
      viewport: VIEWPORT,
      home,
      auction,
    }),
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
