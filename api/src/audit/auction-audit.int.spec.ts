import type { AuctionCommand } from '@auction/contracts';
import { Engine, SqliteEventStore } from '@auction/engine';
import { SqliteReadStore } from '@auction/projections';
import { ReadStoreUserDirectory } from '@auction/projections/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordCommands } from '@auction/engine/testing';
import { AuctionAudit } from './auction-audit';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (n: number) => new Date(T0 + n).toISOString();
const meta = (actorId: string, n: number) => ({
  commandId: `cmd-${n}`,
  actorId,
  correlationId: `corr-${n}`,
  at: at(n),
});
const create = (auctionId: string): AuctionCommand => ({
  type: 'CreateAuction',
  data: {
    auctionId,
    title: 'Long auction',
    description: 'Many bids',
    categoryId: 'antiques',
    startingPrice: 10_000,
    endsAt: at(86_400_000),
    image: null,
  },
  metadata: meta('seller', 0),
});
const bids = (auctionId: string, from: number, count: number): AuctionCommand[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'PlaceBid',
    data: { auctionId, bidId: `bid-${from + i}`, amount: 10_000 + (from + i) * 10_000 },
    metadata: meta(`bidder-${(from + i) % 2}`, from + i + 1),
  }));

let events: SqliteEventStore;
let read: SqliteReadStore;
let audit: AuctionAudit;

beforeEach(async () => {
  events = new SqliteEventStore({ filename: ':memory:' });
  read = new SqliteReadStore({ filename: ':memory:' });
  const users = new ReadStoreUserDirectory(read);
  await users.init();
  audit = new AuctionAudit({ events, read, users });
});
afterEach(async () => {
  await read.close();
  await events.close();
});

describe('the export read page by page', () => {
  it('yields the whole stream in pages, up to the revision it had when it started', async () => {
    await recordCommands(events, 'long', [create('long'), ...bids('long', 0, 1202)]);
    const pages: number[] = [];
    const exported = [];
    for await (const page of audit.eventPages('long')) {
      if (pages.length === 0) {
        const bus = new Engine({ store: events });
        for (const bid of bids('long', 1202, 3)) expect((await bus.send(bid)).ok).toBe(true);
        await bus.close();
      }
      pages.push(page.length);
      exported.push(...page);
    }
    expect(pages).toEqual([500, 500, 203]);
    expect(exported.map((e) => e.revision)).toEqual([...Array(1203).keys()]);
    expect(exported).toEqual((await audit.events('long')).slice(0, 1203));
    expect((await audit.events('long')).length).toBe(1206);
  });

  it('yields nothing for a stream that does not exist', async () => {
    const pages = [];
    for await (const page of audit.eventPages('nothing')) pages.push(page);
    expect(pages).toEqual([]);
  });
});

describe('verification against read models that have not caught up', () => {
  it('does not compare them, and names them as behind, not as a problem', async () => {
    await recordCommands(events, 'a1', [create('a1'), ...bids('a1', 0, 2)]);
    const verdict = await audit.verify('a1');
    expect(verdict.chain).toMatchObject({ ok: true, length: 3 });
    expect(verdict.readModels.differences).toEqual([]);
    expect(verdict.readModels.projections.every((p) => p.behind && p.checkpoint === null)).toBe(
      true,
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.problems).toEqual([]);
    expect(verdict.behind).toEqual(verdict.readModels.projections.map((p) => p.name));
    expect(verdict.behind).toContain('catalog');
  });
});
