import { createServer } from 'node:net';
import { expect } from 'vitest';

/** mulberry32: a small seeded generator, so a failing run's kill moments can be replayed. */
export const seeded = (seed: number) => {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A port free on 127.0.0.1 now (a restarted server gets the same one back). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Every acknowledged bid (`acked`: bid id → auction and amount in dollars) is stored exactly once,
 * on its auction, for its amount in cents; and no stored bid is stored twice.
 */
export const expectAcknowledgedStoredOnce = (
  acked: ReadonlyMap<string, { readonly auctionId: string; readonly amount: number }>,
  stored: ReadonlyMap<
    string,
    { readonly times: number; readonly auctionId: string; readonly amount: number }
  >,
): void => {
  for (const [bidId, ack] of acked) {
    expect({ bidId, ...stored.get(bidId) }).toEqual({
      bidId,
      times: 1,
      auctionId: ack.auctionId,
      amount: Math.round(ack.amount * 100),
    });
  }
  expect([...stored.values()].filter((bid) => bid.times !== 1)).toEqual([]);
};
