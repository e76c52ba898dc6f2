import { randomUUID } from 'node:crypto';
import type { AuctionView, BidView, IncrementRule } from '@auction/contracts';
import type { CommandOutcome } from '@auction/engine';
import { expect } from 'vitest';
import { TestClient, type TestResponse, type TestServer } from './test-server';

export interface TestUser {
  readonly client: TestClient;
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
}

let counter = 0;

/** Signs a new user up over HTTP and logs them in; returns their client (with the session). */
export const signUpAndLogIn = async (
  server: Pick<TestServer, 'client'>,
  overrides: { firstName?: string; lastName?: string; email?: string; password?: string } = {},
): Promise<TestUser> => {
  const n = ++counter;
  const user = {
    firstName: overrides.firstName ?? `First${n}`,
    lastName: overrides.lastName ?? `Last${n}`,
    email: overrides.email ?? `user${n}-${Date.now()}@example.com`,
    password: overrides.password ?? 'Secret123',
  };
  const client = server.client();
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...user, confirmPassword: user.password })) form.set(k, v);
  const signup = await client.post('/api/v1/auth/signup', { form });
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const login = await client.post('/api/v1/auth/login', {
    json: { email: user.email, password: user.password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { ...user, client, id: (login.body as { user: { _id: string } }).user._id };
};

/** Sally Seller, Alice Able and Bob Baker, signed up and logged in: the cast most tests bid with. */
export const sellerAliceBob = (
  server: Pick<TestServer, 'client'>,
): Promise<[seller: TestUser, alice: TestUser, bob: TestUser]> =>
  Promise.all([
    signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' }),
    signUpAndLogIn(server, { firstName: 'Alice', lastName: 'Able' }),
    signUpAndLogIn(server, { firstName: 'Bob', lastName: 'Baker' }),
  ]);

/** Creates an auction over HTTP as the client's user (Antiques and $100 unless told); returns its id. */
export const createAuctionOverHttp = async (
  client: TestClient,
  options: {
    title?: string;
    description?: string;
    /** A category's id; absent: `antiques`. */
    category?: string;
    startingPrice?: number;
    endsInMs?: number;
    /** Absent: the server's default (off unless `DEFAULT_SOFT_CLOSE` says otherwise). */
    softClose?: boolean;
    /** Absent: the server's default (`one-dollar` unless `DEFAULT_INCREMENTS` says otherwise). */
    increments?: IncrementRule;
    /** Dollars. */
    reservePrice?: number;
    buyNowPrice?: number;
  } = {},
): Promise<string> => {
  const res = await client.post('/api/v1/auction/createAuction', {
    json: {
      title: options.title ?? 'Carriage clock',
      description: options.description ?? 'Brass, 1890s',
      category: options.category ?? 'antiques',
      startingPrice: options.startingPrice ?? 100,
      auctionDate: new Date(Date.now() + (options.endsInMs ?? 86_400_000)).toISOString(),
      ...(options.softClose === undefined ? {} : { softClose: options.softClose }),
      ...(options.increments === undefined ? {} : { increments: options.increments }),
      ...(options.reservePrice === undefined ? {} : { reservePrice: options.reservePrice }),
      ...(options.buyNowPrice === undefined ? {} : { buyNowPrice: options.buyNowPrice }),
    },
  });
  if (res.status !== 201) throw new Error(`createAuction failed: ${JSON.stringify(res.body)}`);
  return (res.body as { auction: { _id: string } }).auction._id;
};

/** The auction's detail page data, as a guest sees it. */
export const fetchAuction = async (
  server: Pick<TestServer, 'client'>,
  auctionId: string,
): Promise<AuctionView> => {
  const res = await server
    .client()
    .get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`);
  if (res.status !== 200)
    throw new Error(`fetchSpecificAuction failed: ${JSON.stringify(res.body)}`);
  return (res.body as { auctionDetails: AuctionView }).auctionDetails;
};

/** Polls the auction's detail (every 100 ms) until its status is `status`; fails after `ms`. */
export const waitForStatus = async (
  server: Pick<TestServer, 'client'>,
  auctionId: string,
  status: AuctionView['status'],
  ms = 15_000,
): Promise<AuctionView> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await fetchAuction(server, auctionId);
    if (view.status === status) return view;
    if (Date.now() > deadline) throw new Error(`the auction was not ${status} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/**
 * The auction's detail and every standing bid, as a guest sees them: the detail's first page of
 * bids and the pages of `GET /auction/bids` after its `bidsNextCursor`.
 */
export const fetchEveryBid = async (
  server: Pick<TestServer, 'client'>,
  auctionId: string,
): Promise<{ auction: AuctionView; bids: BidView[] }> => {
  const auction = await fetchAuction(server, auctionId);
  const bids = [...auction.bids];
  for (let cursor = auction.bidsNextCursor; cursor !== null;) {
    const res = await server
      .client()
      .get(
        `/api/v1/auction/bids?auctionId=${auctionId}&limit=100&cursor=${encodeURIComponent(cursor)}`,
      );
    if (res.status !== 200) throw new Error(`auction bids failed: ${JSON.stringify(res.body)}`);
    const page = res.body as { bids: BidView[]; nextCursor: string | null };
    bids.push(...page.bids);
    cursor = page.nextCursor;
  }
  return { auction, bids };
};

/**
 * Waits until every read model has applied the whole log: for a test that reads as a stranger
 * (or the read store itself) right after writes, where the read models may lag (MongoDB).
 */
export const settled = async (server: Pick<TestServer, 'deps'>): Promise<void> => {
  const head = await server.deps.events.headPosition();
  if (head !== undefined) await server.deps.runner.waitFor(head);
};

/** What `POST /bid/placeBid` answers with 201. */
export interface PlacedBid {
  readonly newBid: BidView;
  readonly currentBid: number;
  readonly revision: number;
  readonly leading: boolean;
  readonly maxBid: number;
  /** Only when the bid moved the end (soft close). */
  readonly auctionEndTime?: string;
}

/**
 * `POST /bid/placeBid` as the user (or a bare client), answered as it comes: for a test whose
 * point is the answer, a refusal included. `maxBidAmount` is sent only when given.
 */
export const requestBid = (
  as: TestUser | TestClient,
  productId: string,
  bidAmount: unknown,
  options: { maxBidAmount?: number; idempotencyKey?: string } = {},
): Promise<TestResponse> =>
  (as instanceof TestClient ? as : as.client).post(
    '/api/v1/bid/placeBid',
    {
      json: {
        productId,
        bidAmount,
        ...(options.maxBidAmount === undefined ? {} : { maxBidAmount: options.maxBidAmount }),
      },
    },
    options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey },
  );

/** Places a bid over HTTP as the user (or a bare client); expects 201 and returns the answer. */
export const placeBid = async (
  as: TestUser | TestClient,
  productId: string,
  bidAmount: number,
  maxBidAmount?: number,
): Promise<PlacedBid> => {
  const res = await requestBid(as, productId, bidAmount, { maxBidAmount });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PlacedBid;
};

/** A command's metadata as the routes seal it: fresh ids, `actorId`, now (or `at`). */
export const commandMetadata = (actorId: string, at: Date = new Date()) => ({
  commandId: randomUUID(),
  actorId,
  correlationId: randomUUID(),
  at: at.toISOString(),
});

/**
 * A bid sent to the server's own engine (no HTTP, no rate limit, no session: quick); expects it
 * accepted and waits until the read models have applied it.
 */
export const placeBidThroughEngine = async (
  server: Pick<TestServer, 'deps'>,
  auctionId: string,
  bidderId: string,
  dollars: number,
): Promise<void> => {
  const outcome = await server.deps.engine.send({
    type: 'PlaceBid',
    data: { auctionId, bidId: randomUUID(), amount: Math.round(dollars * 100) },
    metadata: commandMetadata(bidderId),
  });
  expect(outcome.ok).toBe(true);
  if (outcome.ok && outcome.position !== undefined)
    await server.deps.runner.waitFor(outcome.position);
};

/**
 * Closes the auction through the server's engine as its closing scheduler would at `at`; once the
 * close is accepted, waits until the read models have applied it. The outcome is the caller's to
 * check (a close before the end is refused).
 */
export const closeThroughEngine = async (
  server: Pick<TestServer, 'deps'>,
  auctionId: string,
  at: Date,
): Promise<CommandOutcome> => {
  const outcome = await server.deps.engine.send({
    type: 'CloseAuction',
    data: { auctionId },
    metadata: commandMetadata('system', at),
  });
  if (outcome.ok && outcome.position !== undefined)
    await server.deps.runner.waitFor(outcome.position);
  return outcome;
};
