import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DomainError, rejection } from '@auction/contracts';
import type { RequestHandler } from 'express';
import multer, { MulterError } from 'multer';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const UPLOADS_PATH = '/uploads';

const singleImage = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 },
}).single('image');

/**
 * The optional `image` file of a multipart form, held in memory up to 10 MB (413 beyond). A form
 * the parser cannot read (truncated, malformed) is the client's error: 400, not 500.
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

/** Uploaded images as files under `DATA_DIR/uploads` with random names, served at `/uploads`. */
export class ImageStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Stores the bytes if they are a JPEG, PNG, WebP or GIF (415 otherwise); returns its URL. */
  async save(buffer: Buffer): Promise<string> {
    const ext = sniffImage(buffer);
    if (!ext) throw new DomainError(rejection('UNSUPPORTED_MEDIA_TYPE'));
    const name = `${randomBytes(16).toString('hex')}.${ext}`;
    await writeFile(join(this.dir, name), buffer, { flag: 'wx' });
    return `${UPLOADS_PATH}/${name}`;
  }

  /** Deletes an image this store saved; anything else is ignored. */
  async remove(url: string | null | undefined): Promise<void> {
    if (!url?.startsWith(`${UPLOADS_PATH}/`)) return;
    await unlink(join(this.dir, basename(url))).catch(() => undefined);
  }
}
