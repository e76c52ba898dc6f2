import {
  type AuditDifference,
  AuditEvent,
  AuditState,
  AuditTimeline,
  AuditVerification,
  AuctionEvent,
  auctionStream,
  centsToDollars,
} from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SampleAuction,
  editDatabase,
  sampleAuction,
  tamperWithEvent,
} from '../../../testing/audit-fixtures';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let auditor: TestUser;
let admin: TestUser;
let sample: SampleAuction;

const path = (auctionId: string, route: string) => `/api/v1/audit/auctions/${auctionId}/${route}`;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob, auditor, admin] = await Promise.all([
    signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' }),
    signUpAndLogIn(server, { firstName: 'Alice', lastName: 'Able' }),
    signUpAndLogIn(server, { firstName: 'Bob', lastName: 'Baker' }),
    signUpAndLogIn(server, { firstName: 'Audrey', lastName: 'Auditor' }),
    signUpAndLogIn(server, { firstName: 'Adam', lastName: 'Admin' }),
  ]);
  await server.deps.accounts.setRole(auditor.email, 'Auditor');
  await server.deps.accounts.setRole(admin.email, 'Admin');
  sample = await sampleAuction(server, seller, alice, bob);
});
afterAll(() => server.cleanup());

const verify = async (auctionId: string) => {
  const res = await auditor.client.get(path(auctionId, 'verify'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { message: res.body.message as string, ...AuditVerification.parse(res.body.verification) };
};

const state = async (auctionId: string, query = '') => {
  const res = await auditor.client.get(`${path(auctionId, 'state')}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return AuditState.parse(res.body.state);
};

describe('who may audit an auction', () => {
  const routes = ['events', 'state', 'timeline', 'verify', 'export'];

  it.each(routes)(
    '%s: a guest gets 401, a bidder 403; the seller, an Auditor and an Admin 200',
    async (route) => {
      const url = path(sample.auctionId, route);
      const guest = await server.client().get(url);
      expect(guest.status).toBe(401);
      expect(guest.body).toEqual({ success: false, message: 'Please log in to continue' });
      const bidder = await bob.client.get(url);
      expect(bidder.status).toBe(403);
      expect(bidder.body).toEqual({ success: false, message: 'You are not allowed to do this' });
      for (const user of [seller, auditor, admin]) {
        expect((await user.client.get(url)).status, `${user.firstName} on ${route}`).toBe(200);
      }
    },
  );

  it('answers 404 for an auction nobody knows and 400 for an id that cannot be one', async () => {
    const unknown = await auditor.client.get(path('no-such-auction', 'events'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Auction not found' });
    const bad = await auditor.client.get(path('not%20an%20id', 'state'));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: 'Invalid auction id' });
  });

  it('takes the seller from the log, so the seller of another auction is refused', async () => {
    const other = await sampleAuction(server, alice, bob, seller);
    expect((await seller.client.get(path(other.auctionId, 'events'))).status).toBe(403);
    expect((await alice.client.get(path(other.auctionId, 'events'))).status).toBe(200);
  });
});

describe('GET events', () => {
  it('lists every event in stream order, as stored, with positions, both times, hash and dollars', async () => {
    const res = await auditor.client.get(path(sample.auctionId, 'events'));
    expect(res.body).toMatchObject({ success: true, auctionId: sample.auctionId, lastRevision: 5 });
    const events = res.body.events.map((e: unknown) => AuditEvent.parse(e));
    const stored = await server.deps.events.readStream(auctionStream(sample.auctionId));
    expect(events.map((e: AuditEvent) => e.type)).toEqual([
      'AuctionCreated',
      'BidPlaced',
      'BidPlaced',
      'BidEdited',
      'BidRetracted',
      'AuctionClosed',
    ]);
    events.forEach((event: AuditEvent, i: number) => {
      const original = stored[i];
      expect(event).toEqual({
        streamId: auctionStream(sample.auctionId),
        revision: i,
        position: original?.position,
        eventId: original?.id,
        type: original?.type,
        at: (original?.data as { at: string }).at,
        recordedAt: original?.recordedAt,
        actorId: (original?.metadata as { actorId: string }).actorId,
        hash: (original?.metadata as { hash: string }).hash,
        prevHash: (original?.metadata as { prevHash: string }).prevHash,
        data: original?.data,
        metadata: original?.metadata,
        dollars: expect.any(Object),
      });
      expect(new Date(event.recordedAt).toISOString()).toBe(event.recordedAt);
    });
    expect(events[1].actorId).toBe(alice.id);
    expect(events[1].data).toMatchObject({ amount: 12_000, bidderId: alice.id });
    expect(events[1].dollars).toEqual({ amount: 120 });
    expect(events[3].dollars).toEqual({ amount: 140, previousAmount: 120 });
    expect(events[4].dollars).toEqual({ amount: 130, currentBid: 140 });
    expect(events[0].dollars).toEqual({ startingPrice: 100 });
    expect(events[5]).toMatchObject({ actorId: 'system', dollars: { finalPrice: 140 } });
    for (let i = 1; i < events.length; i++) {
      expect(events[i].position).toBeGreaterThan(events[i - 1].position);
      expect(events[i].prevHash).toBe(events[i - 1].hash);
    }
  });
});

describe('GET state', () => {
  it('folds through a revision: status, current bid, leader and the bid board with names', async () => {
    const atTwo = await state(sample.auctionId, '?revision=2');
    expect(atTwo).toMatchObject({
      auctionId: sample.auctionId,
      revision: 2,
      lastRevision: 5,
      status: 'Live',
      title: 'Grandfather clock',
      category: { _id: 'antiques', name: 'Antiques' },
      seller: { _id: seller.id, firstName: 'Sally', lastName: 'Seller' },
      startingPrice: 100,
      currentBid: 130,
      leadingBidId: sample.bobBid,
      leader: { _id: bob.id, firstName: 'Bob', lastName: 'Baker' },
      winner: null,
      finalPrice: null,
      event: { revision: 2, type: 'BidPlaced' },
    });
    expect(atTwo.bids.map((b) => [b._id, b.amount, b.bidder.firstName])).toEqual([
      [sample.bobBid, 130, 'Bob'],
      [sample.aliceBid, 120, 'Alice'],
    ]);
    expect(atTwo.at).toBe(atTwo.event?.at);

    const atFour = await state(sample.auctionId, '?revision=4');
    expect(atFour).toMatchObject({ currentBid: 140, leader: { _id: alice.id }, status: 'Live' });
    expect(atFour.bids.map((b) => [b._id, b.amount])).toEqual([[sample.aliceBid, 140]]);

    const atZero = await state(sample.auctionId, '?revision=0');
    expect(atZero).toMatchObject({ currentBid: 0, leader: null, bids: [], status: 'Live' });
  });

  it('without a point, is the state after the last event', async () => {
    expect(await state(sample.auctionId)).toMatchObject({
      revision: 5,
      status: 'Sold',
      currentBid: 140,
      winner: { _id: alice.id, firstName: 'Alice' },
      finalPrice: 140,
      event: { type: 'AuctionClosed' },
    });
  });

  it('folds through every event at or before a business time', async () => {
    const events = (await auditor.client.get(path(sample.auctionId, 'events'))).body
      .events as AuditEvent[];
    const third = events[2] as AuditEvent;
    const at = encodeURIComponent(third.at ?? '');
    expect(await state(sample.auctionId, `?at=${at}`)).toEqual(
      await state(sample.auctionId, '?revision=2'),
    );
    const justBefore = new Date(Date.parse(third.at ?? '') - 1).toISOString();
    const before = await state(sample.auctionId, `?at=${encodeURIComponent(justBefore)}`);
    expect(before.revision).toBeLessThan(2);
    const offset = await state(sample.auctionId, `?at=2000-01-01T01:00:00%2B01:00`);
    expect(offset).toMatchObject({ revision: null, status: 'None', bids: [], event: null });
  });

  it.each([
    ['?revision=-1', 'revision must be a whole number, 0 or more'],
    ['?revision=abc', 'revision must be a whole number, 0 or more'],
    ['?revision=1.5', 'revision must be a whole number, 0 or more'],
    ['?revision=', 'revision must be a whole number, 0 or more'],
    ['?revision=1&revision=2', 'revision must be a whole number, 0 or more'],
    ['?revision=6', "revision must be at most 5, the auction's last revision"],
    ['?revision=99999999999999999999', 'revision must be a whole number, 0 or more'],
    ['?at=yesterday', 'at must be an ISO date-time such as 2030-01-01T12:00:00.000Z'],
    ['?at=2030-01-01', 'at must be an ISO date-time such as 2030-01-01T12:00:00.000Z'],
    ['?at=2030-02-30T00:00:00Z', 'at must be an ISO date-time such as 2030-01-01T12:00:00.000Z'],
    ['?revision=1&at=2030-01-01T00:00:00Z', 'Give either revision or at, not both'],
  ])('refuses %s with 400 and a clear message', async (query, message) => {
    const res = await auditor.client.get(`${path(sample.auctionId, 'state')}${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
  });
});

describe('GET timeline', () => {
  it('gives each event its actor and the board fields it changed, names looked up once', async () => {
    const res = await auditor.client.get(path(sample.auctionId, 'timeline'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const timeline = AuditTimeline.parse(res.body.timeline);
    expect(timeline).toMatchObject({ auctionId: sample.auctionId, lastRevision: 5 });
    const names = new Map(timeline.users.map((u) => [u._id, u.firstName]));
    expect([seller.id, alice.id, bob.id].map((id) => names.get(id))).toEqual([
      'Sally',
      'Alice',
      'Bob',
    ]);
    const steps = timeline.steps;
    expect(steps.map((s) => [s.revision, s.type, s.actor, s.price, s.leader])).toEqual([
      [0, 'AuctionCreated', { kind: 'user', userId: seller.id }, 0, null],
      [1, 'BidPlaced', { kind: 'user', userId: alice.id }, 120, alice.id],
      [2, 'BidPlaced', { kind: 'user', userId: bob.id }, 130, bob.id],
      [3, 'BidEdited', { kind: 'user', userId: alice.id }, 140, alice.id],
      [4, 'BidRetracted', { kind: 'user', userId: bob.id }, 140, alice.id],
      [5, 'AuctionClosed', { kind: 'system' }, 140, alice.id],
    ]);
    const change = (revision: number) =>
      steps[revision]?.changes.map((c) => [c.field, c.bidder, c.before, c.after]);
    // No maximum rows here: none of these bids has a maximum above its amount.
    expect(change(2)).toEqual([
      ['price', null, 120, 130],
      ['leader', null, alice.id, bob.id],
      ['bid', bob.id, null, 130],
    ]);
    expect(change(3)).toEqual([
      ['price', null, 130, 140],
      ['leader', null, bob.id, alice.id],
      ['bid', alice.id, 120, 140],
    ]);
    expect(change(4)).toEqual([['bid', bob.id, 130, null]]);
    expect(change(5)).toEqual([
      ['status', null, 'Live', 'Sold'],
      ['winner', null, null, alice.id],
      ['finalPrice', null, null, 140],
    ]);
    expect(change(0)).toContainEqual(['startingPrice', null, 0, 100]);
  });

  it("gives a seller the same steps without a bidder's maximum", async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    await placeBid(alice, auctionId, 120, 300);
    await placeBid(bob, auctionId, 150);
    const res = await seller.client.get(path(auctionId, 'timeline'));
    expect(res.status).toBe(200);
    const { steps } = AuditTimeline.parse(res.body.timeline);
    const auditors = AuditTimeline.parse(
      (await auditor.client.get(path(auctionId, 'timeline'))).body.timeline,
    ).steps;
    expect(auditors.map((s) => s.type)).toEqual([
      'AuctionCreated',
      'BidPlaced',
      'BidPlaced',
      'AutomaticBidPlaced',
    ]);
    // Alice's maximum, set with her bid; the automatic bid that answers Bob leaves it as it was.
    expect(auditors[1]?.changes).toContainEqual({
      field: 'maximum',
      kind: 'money',
      bidder: alice.id,
      before: null,
      after: 300,
    });
    expect(auditors[3]).toMatchObject({
      actor: { kind: 'user', userId: bob.id },
      bidder: alice.id,
    });
    expect(steps).toEqual(
      auditors.map((step) => ({
        ...step,
        changes: step.changes.filter((c) => c.field !== 'maximum'),
      })),
    );
  });
});

describe('GET export', () => {
  it('streams NDJSON, one event per line, equal to the events list', async () => {
    const res = await auditor.client.get(path(sample.auctionId, 'export'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toContain(`auction-${sample.auctionId}.ndjson`);
    const text = res.body as string;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => AuditEvent.parse(JSON.parse(line)));
    const listed = (await auditor.client.get(path(sample.auctionId, 'events'))).body.events;
    expect(lines).toEqual(listed);
  });

  it('round-trips: the exported lines folded with evolve give the state at the last revision', async () => {
    const text = (await auditor.client.get(path(sample.auctionId, 'export'))).body as string;
    let folded = initialState;
    for (const line of text.trimEnd().split('\n')) {
      const event = AuditEvent.parse(JSON.parse(line));
      folded = evolve(folded, AuctionEvent.parse({ type: event.type, data: event.data }));
    }
    const last = await state(sample.auctionId, '?revision=5');
    expect(last).toMatchObject({
      status: folded.status,
      title: folded.title,
      startingPrice: centsToDollars(folded.startingPrice),
      endsAt: folded.endsAt,
      currentBid: centsToDollars(folded.currentBid),
      leadingBidId: folded.leadingBidId,
      finalPrice: folded.finalPrice === null ? null : centsToDollars(folded.finalPrice),
    });
    expect(last.winner?._id ?? null).toBe(folded.winnerId);
    expect(last.bids.map((b) => [b._id, b.bidder._id, b.amount])).toEqual(
      standing(folded).map((b) => [b.bidId, b.bidderId, centsToDollars(b.amount)]),
    );
  });
});

describe('GET verify', () => {
  it('finds an untouched auction intact: chain, no truncation, read models equal to a replay', async () => {
    const verdict = await verify(sample.auctionId);
    expect(verdict).toMatchObject({
      message: 'The auction record is intact',
      ok: true,
      problems: [],
      chain: { ok: true, length: 6 },
      truncation: { ok: true, logRevision: 5, recordedRevision: 5 },
      readModels: { ok: true, differences: [], omitted: 0 },
    });
    expect(verdict.readModels.projections.map((p) => [p.name, p.behind])).toEqual([
      ['catalog', false],
      ['activity', false],
      ['winnings', false],
      ['notifications', false],
      ['watchlist', false],
    ]);
    for (const p of verdict.readModels.projections) expect(p.documents).toBeGreaterThan(0);
  });

  it('names the revision of an event changed in the events file, and the read-model fields it no longer explains', async () => {
    const { auctionId } = await sampleAuction(server, seller, alice, bob);
    tamperWithEvent(server.dataDir, auctionId, 2, 'amount', 99_900);
    const verdict = await verify(auctionId);
    expect(verdict.ok).toBe(false);
    expect(verdict.chain).toEqual({ ok: false, length: 6, brokenAt: 2, reason: 'hash-mismatch' });
    expect(verdict.message).toContain('The hash chain breaks at revision 2 (hash-mismatch)');
    tamperWithEvent(server.dataDir, auctionId, 4, 'amount', 'lots');
    const folded = await auditor.client.get(`${path(auctionId, 'state')}?revision=4`);
    expect(folded.status).toBe(409);
    expect(folded.body).toEqual({
      success: false,
      message:
        'Revision 4 is not a valid auction event, so the state cannot be folded through it; verify the auction',
    });
    expect((await state(auctionId, '?revision=3')).currentBid).toBe(140);
    expect(verdict.readModels.differences).toContainEqual(
      expect.objectContaining({
        collection: 'catalog_bids',
        kind: 'changed',
        path: 'amount',
        stored: 13_000,
        replayed: 99_900,
      }),
    );
  });

  it('lists a corrupted read-model document field by field, and a deleted one as missing', async () => {
    const { auctionId, aliceBid } = await sampleAuction(server, seller, alice, bob);
    // As someone with write access to the read store could, on whichever store it is.
    const stored = await server.deps.read.get('catalog_auctions', auctionId);
    if (!stored) throw new Error('the catalog has no document for the auction');
    await server.deps.read.upsert('catalog_auctions', { ...stored, currentBid: 1, title: 'Fake' });
    await server.deps.read.remove('winnings_items', auctionId);
    const verdict = await verify(auctionId);
    expect(verdict).toMatchObject({ ok: false, chain: { ok: true }, truncation: { ok: true } });
    const differences = verdict.readModels.differences.map(
      ({ projection, collection, documentId, kind, path, stored, replayed }: AuditDifference) => ({
        projection,
        collection,
        documentId,
        kind,
        path,
        stored,
        replayed,
      }),
    );
    expect(differences).toEqual([
      {
        projection: 'catalog',
        collection: 'catalog_auctions',
        documentId: auctionId,
        kind: 'changed',
        path: 'currentBid',
        stored: 1,
        replayed: 14_000,
      },
      {
        projection: 'catalog',
        collection: 'catalog_auctions',
        documentId: auctionId,
        kind: 'changed',
        path: 'title',
        stored: 'Fake',
        replayed: 'Grandfather clock',
      },
      {
        projection: 'winnings',
        collection: 'winnings_items',
        documentId: auctionId,
        kind: 'missing',
        path: '',
        stored: undefined,
        replayed: expect.objectContaining({ winnerId: alice.id, finalPrice: 14_000 }),
      },
    ]);
    expect(aliceBid).toBeTruthy();
    expect(verdict.problems).toEqual([
      '3 difference(s) between the read models and a fresh replay',
    ]);
  });

  it('reports events cut off the end of the stream, which the chain alone cannot see', async () => {
    const { auctionId } = await sampleAuction(server, seller, alice, bob);
    editDatabase(
      server.dataDir,
      'events.sqlite',
      'DELETE FROM events WHERE stream_id = ? AND revision >= 4',
      auctionStream(auctionId),
    );
    const verdict = await verify(auctionId);
    expect(verdict.chain).toMatchObject({ ok: true, length: 4 });
    expect(verdict.truncation).toMatchObject({
      ok: false,
      logRevision: 3,
      recordedRevision: 5,
      message:
        'Events were cut off the end of the stream: the catalog applied revision 5, the log ends at revision 3',
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.readModels.differences).toContainEqual(
      expect.objectContaining({
        collection: 'catalog_auctions',
        path: 'status',
        stored: 'Sold',
        replayed: 'Live',
      }),
    );
  });

  it('reports an auction whose whole stream is gone while the catalog still knows it', async () => {
    const { auctionId } = await sampleAuction(server, seller, alice, bob);
    editDatabase(
      server.dataDir,
      'events.sqlite',
      'DELETE FROM events WHERE stream_id = ?',
      auctionStream(auctionId),
    );
    const verdict = await verify(auctionId);
    expect(verdict.truncation).toMatchObject({
      ok: false,
      logRevision: null,
      recordedRevision: 5,
      message:
        'Events were cut off the end of the stream: the catalog applied revision 5, the log has no event of it',
    });
  });
});

const standing = (folded: AuctionState) =>
  [...folded.bids.values()]
    .filter((bid) => !bid.retracted)
    .sort((a, b) => b.amount - a.amount || a.placedAt.localeCompare(b.placedAt));
