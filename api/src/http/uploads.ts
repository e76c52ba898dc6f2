import { randomBytes } from 'node:crypto';
import { constants, mkdirSync } from 'node:fs';
import { access, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError, errorCatalog, rejection } from '@auction/contracts';
import express, { type RequestHandler } from 'express';
import multer, { MulterError } from 'multer';
import { notFound } from './errors';
import { respond } from './respond';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const UPLOADS_PATH = '/uploads';

const singleImage = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 },
}).single('image');

/**
 * The optional `image` file of a multipart form, held in memory up to 10 MB (413 beyond). A form
 * the parser cannot read (truncated, malformed) is the client's error: 400, not 500. How many are
 * held at once, and for how long, `bodyLimits` bounds.
 */
export const imageUpload: RequestHandler = (req, res, next) =>
  singleImage(req, res, (error?: unknown) => {
    if (error === undefined || error === null || error instanceof MulterError) return next(error);
    next(
      new DomainError(
        rejection('VALIDATION_FAILED', undefined, 'Invalid upload: the form could not be read'),
      ),
    );
  });

/**
 * Bounds on request bodies, mounted before anything reads one:
 * - a body that has not fully arrived `timeoutMs` after the request's headers is answered 408
 *   (`REQUEST_TIMEOUT`) and its connection closed; nothing reads it further, so nothing it asked
 *   for happens (when an answer was already under way, the connection is destroyed instead);
 * - at most `uploadsInProgress` uploads (multipart bodies declared longer than `SMALL_FORM_BYTES`,
 *   or of unknown length) are received at once: one more is answered 503
 *   (`UPLOADS_BUSY`) before a byte of it is read. With multer holding an upload in memory up to
 *   `MAX_IMAGE_BYTES`, this caps what uploads in progress can hold at their product.
 */
/** A multipart body declared at most this long is a small form, not an upload (`bodyLimits`). */
export const SMALL_FORM_BYTES = 64 * 1024;

export const bodyLimits = (options: {
  readonly timeoutMs: number;
  readonly uploadsInProgress: number;
}): RequestHandler => {
  let uploads = 0;
  return (req, res, next) => {
    const length = req.headers['content-length'];
    const hasBody =
      length === undefined ? req.headers['transfer-encoding'] !== undefined : length !== '0';
    if (!hasBody || req.complete) return next();
    // A form whose declared length is small holds at most that: only a larger one, or one of
    // unknown length, is an upload (a signup without a photo is not held back by uploads).
    const upload =
      typeof req.is('multipart/*') === 'string' &&
      !(length !== undefined && Number(length) <= SMALL_FORM_BYTES);
    if (upload && uploads >= options.uploadsInProgress) {
      res.setHeader('Connection', 'close');
      respond(res, 503, errorCatalog.UPLOADS_BUSY.message);
      return;
    }
    if (upload) uploads++;
    let counted = upload;
    const release = () => {
      if (counted) uploads--;
      counted = false;
    };
    const timer = setTimeout(() => {
      release();
      if (req.complete) return;
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.setHeader('Connection', 'close');
      res.once('finish', () => {
        // Half-close first so that the answer is not lost to a reset, then let go of the rest.
        req.socket.end();
        setTimeout(() => req.socket.destroy(), 1000).unref();
      });
      respond(res, 408, errorCatalog.REQUEST_TIMEOUT.message);
    }, options.timeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      release();
    };
    req.once('end', done);
    req.once('close', done);
    // An answer given before the upload is read (a 401, 403 or 429 of the guards before multer)
    // lets Node drop what remains of it: no longer an upload held in memory, but still bounded in
    // time by the timer until it ends.
    res.once('close', release);
    next();
  };
};

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
const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

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

/**
 * Where uploaded images live. Adapters: `FileImageStore` (DATA_DIR/uploads) and
 * `GridFsImageStore` (MongoDB, no shared volume between nodes); both pass `image-store.contract.ts`.
 */
export interface ImageStore {
  /**
   * Stores the bytes if they are a JPEG, PNG, WebP or GIF (DomainError UNSUPPORTED_MEDIA_TYPE
   * otherwise); returns its URL under /uploads/.
   */
  save(buffer: Buffer): Promise<string>;
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

/** Uploaded images as files under `DATA_DIR/uploads` with random names, served at `/uploads`. */
export class FileImageStore implements ImageStore {
  readonly serve: RequestHandler;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    const files = express.static(dir, {
      index: false,
      dotfiles: 'deny',
      immutable: true,
      maxAge: '365d',
      redirect: false,
    });
    this.serve = (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (requestedImage(req.path) === undefined) return notFound(req, res, next);
      files(req, res, (error?: unknown) => (error ? next(error) : notFound(req, res, next)));
    };
  }

  async save(buffer: Buffer): Promise<string> {
    const type = sniffImage(buffer);
    if (!type) throw new DomainError(rejection('UNSUPPORTED_MEDIA_TYPE'));
    const name = newImageName(type);
    await writeFile(join(this.dir, name), buffer, { flag: 'wx' });
    return `${UPLOADS_PATH}/${name}`;
  }

  async remove(url: string | null | undefined): Promise<void> {
    const name = imageNameOf(url);
    if (name === undefined) return;
    await unlink(join(this.dir, name)).catch(() => undefined);
  }

  async list(): Promise<string[]> {
    const names = (await readdir(this.dir)).filter((name) => IMAGE_NAME.test(name));
    return names.sort().map((name) => `${UPLOADS_PATH}/${name}`);
  }

  ping(): Promise<void> {
    return access(this.dir, constants.R_OK | constants.W_OK);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
