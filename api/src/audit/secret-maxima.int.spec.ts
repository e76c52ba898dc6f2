import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AuditEvent, type AuditVerification } from '@auction/contracts';
import { eventHash } from '@auction/engine/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  sellerAliceBob,
  signUpAndLogIn,
} from '../testing/fixtures';
import { auctionEvents, closeProbes, connect, eventually, watch } from '../testing/realtime';
import { type TestServer, startTestServer } from '../testing/test-server';
import { checkShownChain } from './audit-verify';

/**
 * The attack that recovered secret maxima from a seller's audit: every field but the maximum is
 * shown, so hashing each cent value with them until one meets the event's hash finds it.
 */

const MAX = 53_737;
const RAISED = 61_234;

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let auditor: TestUser;
let auctionId: string;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await sellerAliceBob(server);
  auditor = await signUpAndLogIn(server);
  await server.deps.accounts.setRole(auditor.email, 'Auditor');
  auctionId = await createAuctionOverHttp(seller.client);
  const placed = await placeBid(alice, auctionId, 100, MAX / 100);
  await placeBid(bob, auctionId, 150);
  const raised = await alice.client.put(`/api/v1/bid/editBid/${placed.newBid._id}`, {
    json: { maxBidAmount: RAISED / 100 },
  });
  expect(raised.status).toBe(200);
});
afterEach(() => closeProbes());
afterAll(() => server.cleanup());

const eventsAs = async (user: TestUser): Promise<AuditEvent[]> => {
  const res = await user.client.get(`/api/v1/audit/auctions/${auctionId}/events`);
  expect(res.status).toBe(200);
  return (res.body as { events: unknown[] }).events.map((event) => AuditEvent.parse(event));
};

const exportAs = async (user: TestUser): Promise<string> => {
  const res = await user.client.get(`/api/v1/audit/auctions/${auctionId}/export`);
  expect(res.status).toBe(200);
  // Several lines of NDJSON are no JSON document: the client leaves them as text.
  expect(typeof res.body).toBe('string');
  return res.body as string;
};

const parseExport = (text: string): AuditEvent[] =>
  text
    .trim()
    .split('\n')
    .map((line) => AuditEvent.parse(JSON.parse(line)));

/** Every maximum from $400 to $700 tried against the hash of each event that had one. */
const recovered = (events: readonly AuditEvent[]): number[] => {
  const found: number[] = [];
  for (const event of events) {
    if (event.type !== 'BidPlaced' && event.type !== 'BidMaximumRaised') continue;
    if (event.hash === null) continue;
    const {
      hash: _hash,
      commitment: _commitment,
      ...metadata
    } = event.metadata as Record<string, string>;
    for (let guess = 40_000; guess <= 70_000; guess++) {
      const data = {
        ...(event.data as Record<string, unknown>),
        maxAmount: guess,
        ...(event.type === 'BidMaximumRaised' ? { previousMaxAmount: MAX } : {}),
      };
      const link = { streamId: event.streamId, revision: event.revision, type: event.type, data };
      if (eventHash({ ...link, metadata: metadata as never }) === event.hash) found.push(guess);
    }
  }
  return found;
};

describe("a seller's audit gives no way to a bidder's secret maximum", () => {
  it('no maximum meets a hash of the events or of the export, and nothing shows one', async () => {
    const events = await eventsAs(seller);
    const exported = await exportAs(seller);
    expect(recovered(events)).toEqual([]);
    expect(recovered(parseExport(exported))).toEqual([]);
    for (const text of [JSON.stringify(events), exported]) {
      expect(text).not.toMatch(/53737|537\.37|61234|612\.34|"salt"/);
    }
    // An auditor sees the maxima, and the salts that tie them to the hashes.
    const auditors = JSON.stringify(await eventsAs(auditor));
    expect(auditors).toMatch(/"maxAmount":53737/);
    expect(auditors).toMatch(/"maxAmount":61234/);
    expect(auditors).toMatch(/"salt":"[0-9a-f]{32}"/);
  });

  it('the timeline and the board the audit page reads show the seller no maximum, the auditor each', async () => {
    const answers = async (user: TestUser) => {
      const base = `/api/v1/audit/auctions/${auctionId}`;
      const texts: string[] = [];
      for (const route of ['timeline', 'state', 'state?revision=1', 'state?revision=2']) {
        const res = await user.client.get(`${base}/${route}`);
        expect(res.status).toBe(200);
        texts.push(JSON.stringify(res.body));
      }
      return texts.join('\n');
    };
    const sellers = await answers(seller);
    expect(sellers).not.toMatch(
      /53737|537\.37|61234|612\.34|"salt"|"maxAmount":|"field":"maximum"/,
    );
    const auditors = await answers(auditor);
    // The timeline's diffs (dollars) and the board's standing bids carry the maxima.
    expect(auditors).toMatch(
      /"field":"maximum","kind":"money","bidder":"[^"]+","before":null,"after":537\.37/,
    );
    expect(auditors).toMatch(/"before":537\.37,"after":612\.34/);
    expect(auditors).toMatch(/"maxAmount":612\.34/);
  });

  it('tells a bid with a maximum from one without by nothing: the same fields, the same sizes', async () => {
    const firstBidAs = async (maxBidAmount?: number) => {
      const id = await createAuctionOverHttp(seller.client);
      await placeBid(alice, id, 123.45, maxBidAmount);
      const shown = await seller.client.get(`/api/v1/audit/auctions/${id}/events`);
      const bid = (shown.body as { events: AuditEvent[] }).events[1];
      return {
        data: Object.keys(bid?.data as object).sort(),
        metadata: Object.keys(bid?.metadata as object).sort(),
        redacted: bid?.redacted,
        sizes: Object.values(bid?.metadata as object).map((value) => String(value).length),
      };
    };
    expect(await firstBidAs(987.65)).toEqual(await firstBidAs());
    // Nor does the seller's timeline: the same changes, maximum or none.
    const changesAs = async (maxBidAmount?: number) => {
      const id = await createAuctionOverHttp(seller.client);
      await placeBid(alice, id, 123.45, maxBidAmount);
      const shown = await seller.client.get(`/api/v1/audit/auctions/${id}/timeline`);
      const steps = (shown.body as { timeline: { steps: { changes: unknown[] }[] } }).timeline
        .steps;
      return JSON.stringify(steps[1]?.changes).replace(/"[0-9a-f-]{20,}"/g, 'id');
    };
    expect(await changesAs(987.65)).toEqual(await changesAs());
  });

  it('lets the seller check the chain over what they are shown, as the auditor does over all', async () => {
    const sellers = checkShownChain(await eventsAs(seller));
    const auditors = checkShownChain(await eventsAs(auditor));
    const verified = await auditor.client.get(`/api/v1/audit/auctions/${auctionId}/verify`);
    const { chain } = (verified.body as { verification: AuditVerification }).verification;
    expect(chain).toMatchObject({ ok: true });
    expect(sellers).toEqual({ ...auditors, withheldFrom: null });
    expect(sellers).toMatchObject({ ok: true, headHash: chain.ok ? chain.headHash : '-' });
    expect(checkShownChain(parseExport(await exportAs(seller)))).toEqual(sellers);

    // A changed amount in what the seller was shown breaks it.
    const tampered = (await eventsAs(seller)).map((event) =>
      event.type === 'BidPlaced'
        ? { ...event, data: { ...(event.data as object), amount: 1 } }
        : event,
    );
    expect(checkShownChain(tampered)).toMatchObject({ ok: false, reason: 'hash-mismatch' });
  });

  it('`npm run audit -- --check` verifies the export offline, with no store', async () => {
    const file = join(server.dataDir, 'seller-export.ndjson');
    writeFileSync(file, await exportAs(seller));
    const cli = resolve(import.meta.dirname, '../cli/audit.ts');
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      cli,
      '--check',
      file,
    ]);
    expect(stdout).toContain(`auction-${auctionId}: hash chain intact over 5 events`);
  });

  it("gives the seller's verification no stored document's values", async () => {
    const res = await seller.client.get(`/api/v1/audit/auctions/${auctionId}/verify`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/53737|61234/);
  });
});

describe('watchers of a private raise', () => {
  it('hear what they hear of any revision that changes nothing they see', async () => {
    const id = await createAuctionOverHttp(seller.client, { reservePrice: 900 });
    const placed = await placeBid(alice, id, 100, 200);
    const watcher = await connect(server);
    await watch(watcher, { auctionId: id, afterRevision: placed.revision });
    const raise = await alice.client.put(`/api/v1/bid/editBid/${placed.newBid._id}`, {
      json: { maxBidAmount: 345.67 },
    });
    expect(raise.status).toBe(200);
    const edit = await seller.client.patch(`/api/v1/auction/editAuction/${id}`, {
      json: { reservePrice: 800 },
    });
    expect(edit.status).toBe(200);
    await eventually(() => expect(auctionEvents(watcher, id)).toHaveLength(2));
    const [fromRaise, fromEdit] = auctionEvents(watcher, id).map(
      ({ event, payload: { revision: _r, at: _at, ...rest } }) => ({ event, ...rest }),
    );
    expect(fromRaise).toEqual(fromEdit);
    expect(fromRaise).toMatchObject({ event: 'auctionUpdated', type: 'Revision', bid: null });
  });
});
