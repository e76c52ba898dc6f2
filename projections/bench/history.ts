import { minimumRaise } from '@auction/contracts';
import { EventLog, T0 } from '../src/testing/event-log';

/** A realistic mix: auctions with bids, raises, retractions, closes, in 8 categories. */
export const buildHistory = (target: number): EventLog => {
  const log = new EventLog();
  const categories = [
    'art',
    'jewelry',
    'vehicles',
    'estate',
    'fashion',
    'electronics',
    'gaming',
    'antiques',
  ];
  for (const c of categories) log.category(c, c.toUpperCase());
  for (let a = 0; log.events.length < target; a++) {
    const auctionId = `auction-${a}`;
    log.create(auctionId, {
      seller: `seller-${a % 50}`,
      categoryId: categories[a % 8] ?? 'art',
      at: T0,
    });
    let amount = 10_000;
    const bidIds: string[] = [];
    for (let b = 0; b < 200; b++) {
      amount = (b === 0 ? amount : minimumRaise(amount, 'one-dollar')) + (b % 7) * 50;
      const bidId = `${auctionId}-bid-${b}`;
      const bidder = `bidder-${(a * 7 + b) % 300}`;
      log.bid(auctionId, bidder, amount, T0 + 1000 + b, bidId);
      bidIds.push(bidId);
      if (b % 25 === 24) {
        amount += 100;
        log.editBid(auctionId, bidder, bidId, amount, T0 + 1000 + b);
      }
    }
    if (a % 3 === 0) log.close(auctionId);
  }
  return log;
};
