import { constants, createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { access, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import express, { type RequestHandler } from 'express';
import {
  IMAGE_NAME,
  type ImageStore,
  type SaveOptions,
  UPLOADS_PATH,
  imageNameOf,
  noSuchImage,
  requestedImage,
  streamImage,
} from './image-store';

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
      if (requestedImage(req.path) === undefined) return noSuchImage(req, res, next);
      files(req, res, (error?: unknown) => (error ? next(error) : noSuchImage(req, res, next)));
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
