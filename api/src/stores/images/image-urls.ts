import type { PublicUser } from '@auction/contracts';
import { type ImageUrl, type UserDirectory, storedImagePath } from '@auction/projections';

/**
 * The image URLs the API's answers and socket events carry. Events, read models and accounts keep
 * the stored path (`/uploads/<name>`), which same-origin pages load as it is; with `CORS_ORIGINS`,
 * pages served elsewhere would resolve it against their own origin, so the views write it absolute
 * under the public origin (read when called: it knows the port only once the server listens).
 */
export const imageUrlsFor = (corsOrigins: readonly string[] | undefined, origin: () => string) =>
  corsOrigins === undefined
    ? storedImagePath
    : (path: string) => (path.startsWith('/') ? `${origin()}${path}` : path);

/** The directory's public profiles with their images written by `imageUrl`. */
export const withImageUrls = (directory: UserDirectory, imageUrl: ImageUrl): UserDirectory =>
  imageUrl === storedImagePath
    ? directory
    : {
        lookup: async (ids) => {
          const found = await directory.lookup(ids);
          const users = new Map<string, PublicUser>();
          for (const [id, user] of found)
            users.set(
              id,
              user.image ? { ...user, image: { url: imageUrl(user.image.url) } } : user,
            );
          return users;
        },
      };
