/**
 * How views write a stored image path (`/uploads/<name>`, as events and read models keep it): as
 * it is for clients on the API's own origin, or absolute under the public origin for clients
 * served elsewhere (the API's `CORS_ORIGINS`). The queries take it from their caller.
 */
export type ImageUrl = (path: string) => string;

/** The stored path as it is (same-origin clients): the queries' default. */
export const storedImagePath: ImageUrl = (path) => path;

/** An image as views show it: `{url}`, or null for none. */
export const imageView = (path: string | null, imageUrl: ImageUrl): { url: string } | null =>
  path === null ? null : { url: imageUrl(path) };
