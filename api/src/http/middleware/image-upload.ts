import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DomainError, rejection } from '@auction/contracts';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { type ImageStore, ImageStoreError, MAX_IMAGE_BYTES } from '../../stores/images/image-store';

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

/** The SHA-256 of the image this request uploaded (what it asked, for `Idempotency-Key`), or null. */
export const uploadDigest = (req: Request): string | null =>
  (req.file as StoredUpload | undefined)?.sha256 ?? null;

/**
 * The URL of the image this request uploaded (or null), now the caller's to keep or remove. An
 * image nobody claims is removed before the answer goes: a request refused after its image was
 * stored (a bad field, a 403) leaves nothing behind.
 */
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
 * (413, 415 or 429 leave nothing stored). An image the route does not take (`claimUpload`) is
 * removed before the answer goes. An unreadable form is the client's 400; a failing store a 5xx.
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
