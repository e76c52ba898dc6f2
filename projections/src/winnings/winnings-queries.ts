import {
  type PublicUser,
  type WinningItem,
  type WinningsStatistics,
  centsToDollars,
  deletedUser,
} from '@auction/contracts';
import { type ImageUrl, imageView, storedImagePath } from '../images';
import type { ReadStore } from '../read-store/read-store';
import type { UserDirectory } from '../users/user-directory';
import { type WonItemDoc, winningsCollections } from './winnings-projection';

export interface UserWinnings {
  /** Newest won first. */
  readonly winnings: WinningItem[];
  readonly statistics: WinningsStatistics;
}

const toWinningItem = (item: WonItemDoc, seller: PublicUser, imageUrl: ImageUrl): WinningItem => ({
  id: item._id,
  title: item.title,
  description: item.description,
  image: imageView(item.image, imageUrl),
  finalPrice: centsToDollars(item.finalPrice),
  originalPrice: centsToDollars(item.originalPrice),
  wonDate: item.wonDate,
  category: item.categoryName,
  categoryId: item.categoryId,
  seller: `${seller.firstName} ${seller.lastName}`,
  sellerId: item.sellerId,
});

const statisticsOf = (items: readonly WonItemDoc[]): WinningsStatistics => {
  const totalValue = items.reduce((sum, item) => sum + item.finalPrice, 0);
  const totalSavings = items.reduce((sum, item) => sum + item.originalPrice - item.finalPrice, 0);
  // `|| 0` turns the -0 that Math.round gives for small negative averages into 0.
  const averageSavings = items.length === 0 ? 0 : Math.round(totalSavings / items.length) || 0;
  return {
    totalItems: items.length,
    totalValue: centsToDollars(totalValue),
    totalSavings: centsToDollars(totalSavings),
    averageSavings: centsToDollars(averageSavings),
  };
};

/**
 * What a user won, newest first, with the spec's statistics: savings are the original (starting)
 * price minus the final price, so they are usually negative. Money in dollars.
 */
export const userWinnings = async (
  store: ReadStore,
  users: UserDirectory,
  userId: string,
  imageUrl: ImageUrl = storedImagePath,
): Promise<UserWinnings> => {
  const items = (await store.find(winningsCollections.items.name, {
    where: { winnerId: userId },
    orderBy: [{ field: 'wonDate', direction: 'desc' }],
  })) as WonItemDoc[];
  const sellers = await users.lookup([...new Set(items.map((item) => item.sellerId))]);
  return {
    winnings: items.map((item) =>
      toWinningItem(item, sellers.get(item.sellerId) ?? deletedUser(item.sellerId), imageUrl),
    ),
    statistics: statisticsOf(items),
  };
};
