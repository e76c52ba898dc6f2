import { createHash, randomBytes } from 'node:crypto';
import { constants, createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { access, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, errorCatalog, rejection } from '@auction/contracts';
import express, { type Request, type RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import type { ImageStore, SaveOptions } from '../ports';
import { notFound } from './errors';
import { respond } from './respond';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const UPLOADS_PATH = '/uploads';

/** The unit upload sizes are counted in by the byte quotas (`UploadQuota.perMebibyte`). */
export const MEBIBYTE = 1024 * 1024;

/** A refusal by a quota: the 429's message and when to try again. */
export interface QuotaRefusal {
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/** Counts one hit; resolves the refusal when the quota is passed, else undefined. */
export type QuotaHit = () => Promise<QuotaRefusal | undefined>;

/** What one request's image is counted against (per user, per address). */
export interface UploadQuota {
  /** Hit once per image, before a byte of it is stored. */
  readonly perImage: readonly QuotaHit[];
  /** Hit once per mebibyte started, as the bytes arrive (so a 10 MB image costs 10). */
  readonly perMebibyte: readonly QuotaHit[];
}

const NO_QUOTA: UploadQuota = { perImage: [], perMebibyte: [] };

/**
 * The first refusal of `hits`, counted in order: one refused is not counted by those after. A
 * counter that fails (its store) is a store's failure, not the client's.
 */
const firstRefusal = async (hits: readonly QuotaHit[]): Promise<QuotaRefusal | undefined> => {
  for (const hit of hits) {
    const refusal = await hit().catch((error: unknown) => {
      throw new ImageStoreError(error);
    });
    if (refusal) return refusal;
  }
  return undefined;
};

/** The request's 429: `Retry-After` on its response, a `RATE_LIMITED` with the quota's message. */
const refused = (req: Request, refusal: QuotaRefusal): DomainError => {
  if (req.res && !req.res.headersSent)
    req.res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
  return new DomainError(rejection('RATE_LIMITED', undefined, refusal.message));
};

/** An upload stored by `imageUpload`: multer's file with the image's URL and content's SHA-256. */
interface StoredUpload extends Express.Multer.File {
  readonly url: string;
  readonly sha256: string;
}

const CLAIMED = Symbol('upload claimed');

/**
 * The URL of the image this request uploaded (or null), now the caller's to keep or remove. An
 * image nobody claims by the time the answer ends is removed before the answer goes: a request
 * refused after its image was stored (a bad field, a 403) leaves nothing behind.
 */
/** The SHA-256 of the image this request uploaded (what it asked, for `Idempotency-Key`), or null. */
export const uploadDigest = (req: Request): string | null =>
  (req.file as StoredUpload | undefined)?.sha256 ?? null;

export const claimUpload = (req: Request): string | null => {
  const file = req.file as StoredUpload | undefined;
  if (!file?.url) return null;
  (req as unknown as Record<symbol, boolean>)[CLAIMED] = true;
  return file.url;
};

/**
 * multer's storage: each file streams into the image store as it arrives (nothing is held in
 * memory beyond the streams' buffers), counted against the request's quota as it goes.
 */
const streamingStorage = (
  images: () => ImageStore,
  quota: (req: Request) => UploadQuota,
): StorageEngine => ({
  _handleFile(req, file, callback) {
    const store = images();
    const save = async (): Promise<
      Partial<Express.Multer.File> & { url: string; sha256: string }
    > => {
      const limits = quota(req);
      const refusal = await firstRefusal(limits.perImage);
      if (refusal) throw refused(req, refusal);
      let bytes = 0;
      let counted = 0;
      const digest = createHash('sha256');
      // Not destroyed when the save fails: multer then drains the request and answers our error.
      const source = file.stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
      const meter = async function* () {
        for await (const chunk of source) {
          bytes += chunk.length;
          digest.update(chunk);
          while (counted * MEBIBYTE < bytes) {
            counted++;
            const over = await firstRefusal(limits.perMebibyte);
            if (over) throw refused(req, over);
          }
          yield chunk;
        }
      };
      const url = await store.save(Readable.from(meter()), {
        maxBytes: MAX_IMAGE_BYTES,
      });
      const stored = { url, size: bytes, sha256: digest.digest('hex') };
      // Not claimed by the time the answer ends (whatever the answer, even to a client already
      // gone): nobody will reference it, and it is removed before the answer goes. Judged at
      // `end`, not at the connection's close, so a route still running for a client that left
      // keeps what it claims after.
      const res = req.res;
      const claimed = () => (req as unknown as Record<symbol, boolean>)[CLAIMED] === true;
      if (res?.writableEnded) {
        // Answered meanwhile (a 408): the request goes no further, and neither does its image.
        await store.remove(url).catch(() => undefined);
        throw new DomainError(rejection('REQUEST_TIMEOUT'));
      }
      if (res) {
        type End = (...args: unknown[]) => typeof res;
        const end = res.end.bind(res) as End;
        (res as unknown as { end: End }).end = (...args) => {
          if (claimed()) return end(...args);
          void store
            .remove(url)
            .catch(() => undefined)
            .finally(() => end(...args));
          return res;
        };
      }
      return stored;
    };
    save().then(
      (info) => callback(null, info),
      (error: unknown) => {
        // The rest of the file is not read further: multer drains the request and answers.
        file.stream.resume();
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  },
  _removeFile(_req, file, callback) {
    images()
      .remove((file as StoredUpload).url)
      .then(
        () => callback(null),
        (error: unknown) => callback(error as Error),
      );
  },
});

const UPLOAD_LIMITS = {
  fileSize: MAX_IMAGE_BYTES,
  files: 1,
  fields: 30,
  fieldSize: 64 * 1024,
  parts: 40,
};

/**
 * The optional `image` file of a multipart form, streamed into the image store as it arrives
 * (413 beyond 10 MB, 415 when its first bytes are not an image, 429 past the quota; nothing is
 * left stored then). The route takes the image with `claimUpload`; one not claimed is removed
 * before the answer goes. A form the parser cannot read (truncated, malformed) is the client's
 * error: 400, not 500; a store that fails is the store's error (a full disk is a 503). How many
 * are received at once, and for how long, `bodyLimits` bounds.
 */
export const imageUpload = (
  images: () => ImageStore,
  quota: (req: Request) => UploadQuota = () => NO_QUOTA,
): RequestHandler => {
  const single = multer({
    storage: streamingStorage(images, quota),
    limits: UPLOAD_LIMITS,
  }).single('image');
  return (req, res, next) =>
    single(req, res, (error?: unknown) => {
      if (error === undefined || error === null || error instanceof MulterError) return next(error);
      if (error instanceof DomainError || error instanceof ImageStoreError)
        return next(error instanceof ImageStoreError ? error.cause : error);
      next(
        new DomainError(
          rejection('VALIDATION_FAILED', undefined, 'Invalid upload: the form could not be read'),
        ),
      );
    });
};

/** A failure of a store (the image store, a quota's counters), not of the upload: encoded as its cause is. */
export class ImageStoreError extends Error {
  constructor(override readonly cause: unknown) {
    super('The image store failed', { cause });
    this.name = 'ImageStoreError';
  }
}

/**
 * Bounds on request bodies, mounted before anything reads one:
 * - a body that has not fully arrived `timeoutMs` after the request's headers is answered 408
 *   (`REQUEST_TIMEOUT`) and its connection closed; nothing reads it further, so nothing it asked
 *   for happens (when an answer was already under way, the connection is destroyed instead);
 * - at most `uploadsInProgress` uploads (multipart bodies declared longer than `SMALL_FORM_BYTES`,
 *   or of unknown length) are received at once: one more is answered 503
 *   (`UPLOADS_BUSY`) before a byte of it is read. Uploads stream to the image store (a few
 *   buffers each in memory), so this bounds the connections and writes in progress.
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
    // lets Node drop what remains of it: no longer an upload in progress, but still bounded in
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

/** An image being written under `DATA_DIR/uploads`: a dot-file, so never served nor listed. */
const PARTIAL = /^\.[0-9a-f]{32}\.(jpg|png|gif|webp)\.partial$/;

/**
 * Uploaded images as files under `DATA_DIR/uploads` with random names, served at `/uploads`. An
 * image is written to `.<name>.partial` and renamed when whole; partial files left by a crash are
 * deleted when the store opens.
 */
export class FileImageStore implements ImageStore {
  readonly serve: RequestHandler;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (PARTIAL.test(name)) rmSync(join(dir, name), { force: true });
    }
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

  save(source: Buffer | Readable, options: SaveOptions = {}): Promise<string> {
    return streamImage(source, options, (name) => {
      const partial = join(this.dir, `.${name}.partial`);
      const stream = createWriteStream(partial, { flags: 'wx' });
      return {
        stream,
        commit: () => rename(partial, join(this.dir, name)),
        discard: async () => {
          if (!stream.closed) {
            stream.destroy();
            await new Promise<void>((resolve) => stream.once('close', () => resolve()));
          }
          await unlink(partial).catch(() => undefined);
        },
      };
    });
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
