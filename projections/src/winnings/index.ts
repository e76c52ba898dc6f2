export {
  winningsProjection,
  winningsCollections,
  type WonItemDoc,
  type WonItemFields,
} from './winnings-projection';
export { userWinnings, type UserWinnings } from './winnings-queries';
