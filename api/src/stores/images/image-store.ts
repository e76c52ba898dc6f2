import { randomBytes } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, errorCatalog, rejection } from '@auction/contracts';
import type { RequestHandler } from 'express';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const UPLOADS_PATH = '/uploads';

/** How `ImageStore.save` reads its source. */
export interface SaveOptions {
  /** Longer sources are refused (`PAYLOAD_TOO_LARGE`); default `MAX_IMAGE_BYTES`. */
  readonly maxBytes?: number;
}

/**
 * Where uploaded images live. Adapters: `FileImageStore` (DATA_DIR/uploads) and
 * `GridFsImageStore` (MongoDB, no shared volume between nodes); both pass `image-store.contract.ts`.
 */
export interface ImageStore {
  /**
   * Stores the bytes, streamed from `source` as they come, if they are a JPEG, PNG, WebP or GIF
   * (DomainError UNSUPPORTED_MEDIA_TYPE otherwise, PAYLOAD_TOO_LARGE past `maxBytes`; nothing is
   * left stored then, nor when the source fails); returns its URL under /uploads/. The image is
   * served and listed only once whole.
   */
  save(source: Buffer | Readable, options?: SaveOptions): Promise<string>;
  /** Deletes an image this store saved; anything else is ignored. */
  remove(url: string | null | undefined): Promise<void>;
  /**
   * Express handler mounted at /uploads: serves a stored image with its content type,
   * `Cache-Control: public, max-age=31536000, immutable` and `nosniff`; 404 for any other name.
   * Requests other than GET and HEAD go to `next`.
   */
  readonly serve: RequestHandler;
  /** The URLs of every stored image, sorted (for tests and checks, not for requests). */
  list(): Promise<string[]>;
  /** Resolves when the store answers (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a store's `serve` answers for a name it does not hold: the app's JSON 404, so that nothing
 * under /uploads falls through to the routes after it.
 */
export const noSuchImage: RequestHandler = (req, res) => {
  // Written directly, as the app's answers are: no ETag, nothing a cache could keep.
  const body = JSON.stringify({ success: false, message: errorCatalog.NOT_FOUND.message });
  res.statusCode = 404;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
};

/** A failure of a store (the image store, a quota's counters), not of the upload: encoded as its cause is. */
export class ImageStoreError extends Error {
  constructor(override readonly cause: unknown) {
    super('The image store failed', { cause });
    this.name = 'ImageStoreError';
  }
}

const startsWith = (buffer: Buffer, bytes: readonly number[], offset = 0) =>
  buffer.length >= offset + bytes.length && bytes.every((b, i) => buffer[offset + i] === b);

/** The image type by its first bytes (never by the name or the declared type), or undefined. */
export const sniffImage = (buffer: Buffer): 'jpg' | 'png' | 'gif' | 'webp' | undefined => {
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (
    startsWith(buffer, [0x47, 0x49, 0x46, 0x38]) &&
    (buffer[4] === 0x37 || buffer[4] === 0x39) &&
    buffer[5] === 0x61
  ) {
    return 'gif';
  }
  if (
    startsWith(buffer, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(buffer, [0x57, 0x45, 0x42, 0x50], 8)
  )
    return 'webp';
  return undefined;
};

export type ImageType = NonNullable<ReturnType<typeof sniffImage>>;

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageType, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** A stored image never changes under its name: cached for a year. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The names stores give images: 128 random bits in hex and the sniffed type. */
export const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

/** A new random name for an image of this type. */
export const newImageName = (type: ImageType): string =>
  `${randomBytes(16).toString('hex')}.${type}`;

/** The stored name in an image URL (`/uploads/<name>`), or undefined for any other URL. */
export const imageNameOf = (url: string | null | undefined): string | undefined => {
  const name = url?.startsWith(`${UPLOADS_PATH}/`) ? url.slice(UPLOADS_PATH.length + 1) : '';
  return IMAGE_NAME.test(name) ? name : undefined;
};

/**
 * The image a request under `/uploads` names (`req.path` is `/<name>` there), or undefined when
 * the path is not one a store could have made (so no traversal, dot-file or sub-path reaches one).
 */
export const requestedImage = (path: string): string | undefined => {
  const name = path.slice(1);
  return IMAGE_NAME.test(name) ? name : undefined;
};

/** Where a store writes one image whose type is known: the stream, and how to finish or discard it. */
export interface ImageSink {
  readonly stream: Writable;
  /** Makes the written image visible under its name (after the stream finished). */
  readonly commit?: () => Promise<void>;
  /** Removes whatever was written (the save failed). */
  readonly discard: () => Promise<void>;
}

/** Bytes enough to tell every accepted type by its magic bytes (WebP's is the longest). */
const SNIFF_BYTES = 12;

/**
 * Streams an image from `source` into the sink `open` gives for its type: the type comes from the
 * first bytes (`UNSUPPORTED_MEDIA_TYPE` before anything is written otherwise), the length is
 * checked as it arrives (`PAYLOAD_TOO_LARGE` past `maxBytes`). Whatever fails, the sink is
 * discarded: nothing is left stored. A failure of the sink is an `ImageStoreError`.
 */
export const streamImage = async (
  source: Buffer | Readable,
  options: SaveOptions,
  open: (name: string, type: ImageType) => ImageSink | Promise<ImageSink>,
): Promise<string> => {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const input: AsyncIterator<Buffer> = (Buffer.isBuffer(source) ? Readable.from([source]) : source)[
    Symbol.asyncIterator
  ]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < SNIFF_BYTES) {
    const next = await input.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, next.value]);
  }
  const type = sniffImage(head);
  const tooLarge = () => new DomainError(rejection('PAYLOAD_TOO_LARGE'));
  if (!type || head.length > maxBytes) {
    if (!ended) await input.return?.();
    throw type ? tooLarge() : new DomainError(rejection('UNSUPPORTED_MEDIA_TYPE'));
  }
  const name = newImageName(type);
  let sink: ImageSink;
  try {
    sink = await open(name, type);
  } catch (error) {
    if (!ended) await input.return?.();
    throw new ImageStoreError(error);
  }
  // What failed: the source (the client, a limit) is the request's error; anything else the store's.
  let sourceError: Error | undefined;
  async function* body() {
    let bytes = head.length;
    yield head;
    if (ended) return;
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await input.next();
      } catch (error) {
        sourceError = error instanceof Error ? error : new Error(String(error));
        throw sourceError;
      }
      if (next.done === true) return;
      bytes += next.value.length;
      if (bytes > maxBytes) {
        sourceError = tooLarge();
        throw sourceError;
      }
      yield next.value;
    }
  }
  try {
    await pipeline(body(), sink.stream);
    await sink.commit?.();
  } catch (error) {
    await sink.discard().catch(() => undefined);
    if (!ended) await input.return?.().catch(() => undefined);
    throw sourceError instanceof Error ? sourceError : new ImageStoreError(error);
  }
  return `${UPLOADS_PATH}/${name}`;
};
