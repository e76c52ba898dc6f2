import { join } from 'node:path';
import Database from 'better-sqlite3';
import { auctionStream } from '@auction/contracts';
import {
  type TestUser,
  closeThroughEngine,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
} from './fixtures';
import type { TestServer } from './test-server';

export interface SampleAuction {
  readonly auctionId: string;
  /** Alice's bid: placed at $120, raised to $140, the winner. */
  readonly aliceBid: string;
  /** Bob's bid at $130, retracted. */
  readonly bobBid: string;
}

/**
 * An auction with a full history, made over HTTP and closed through the server's own command bus
 * (its end time is a day away): 0 created ($100), 1 Alice $120, 2 Bob $130, 3 Alice raises to
 * $140, 4 Bob retracts, 5 closed Sold to Alice at $140.
 */
export const sampleAuction = async (
  server: TestServer,
  seller: TestUser,
  alice: TestUser,
  bob: TestUser,
): Promise<SampleAuction> => {
  const auctionId = await createAuctionOverHttp(seller.client, { title: 'Grandfather clock' });
  const aliceBid = (await placeBid(alice, auctionId, 120)).newBid._id;
  const bobBid = (await placeBid(bob, auctionId, 130)).newBid._id;
  const raised = await alice.client.put(`/api/v1/bid/editBid/${aliceBid}`, {
    json: { bidAmount: 140 },
  });
  if (raised.status !== 200) throw new Error(`editBid failed: ${JSON.stringify(raised.body)}`);
  const retracted = await bob.client.delete(`/api/v1/bid/deleteBid/${bobBid}`);
  if (retracted.status !== 200)
    throw new Error(`deleteBid failed: ${JSON.stringify(retracted.body)}`);
  const endsAt = (await fetchAuction(server, auctionId)).auctionEndTime;
  const closed = await closeThroughEngine(server, auctionId, new Date(Date.parse(endsAt) + 1000));
  if (!closed.ok || closed.position === undefined)
    throw new Error(`close failed: ${JSON.stringify(closed)}`);
  return { auctionId, aliceBid, bobBid };
};

/** Runs SQL on one of the server's SQLite files through a connection of its own. */
export const editDatabase = (
  dataDir: string,
  file: 'events.sqlite' | 'read.sqlite',
  sql: string,
  ...params: unknown[]
): number => {
  const db = new Database(join(dataDir, file));
  try {
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
};

/** Sets a field of one stored event's data in place, as someone with the file could. */
export const tamperWithEvent = (
  dataDir: string,
  auctionId: string,
  revision: number,
  field: string,
  value: unknown,
): void => {
  const changed = editDatabase(
    dataDir,
    'events.sqlite',
    `UPDATE events SET data = json_set(data, ?, json(?)) WHERE stream_id = ? AND revision = ?`,
    `$.${field}`,
    JSON.stringify(value),
    auctionStream(auctionId),
    revision,
  );
  if (changed !== 1) throw new Error(`no event ${auctionId}@${revision} to tamper with`);
};
