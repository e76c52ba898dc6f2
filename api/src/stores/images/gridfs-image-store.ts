import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Collection, GridFSBucket, type MongoClient } from 'mongodb';
import {
  noSuchImage,
  IMAGE_CACHE_CONTROL,
  IMAGE_CONTENT_TYPES,
  type ImageType,
  UPLOADS_PATH,
  imageNameOf,
  requestedImage,
  streamImage,
} from './image-store';
import type { ImageStore, SaveOptions } from './image-store';

export interface GridFsImageStoreOptions {
  /** Default `images` (collections `images.files` and `images.chunks`). */
  readonly bucketName?: string;
}

/** The headers set for a file about to be served, taken back when it turns out to be gone. */
const SERVED_HEADERS = ['Content-Type', 'Cache-Control', 'ETag', 'Last-Modified', 'Content-Length'];

/**
 * Uploaded images in a MongoDB GridFS bucket, so no node needs a shared volume; served at the same
 * `/uploads/<name>` URLs as the file store. The client is shared: `close` leaves it open.
 */
export class GridFsImageStore implements ImageStore {
  readonly serve: RequestHandler;

  private constructor(
    private readonly client: MongoClient,
    private readonly dbName: string,
    private readonly bucket: GridFSBucket,
    private readonly chunks: Collection,
  ) {
    this.serve = (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      res.setHeader('X-Content-Type-Options', 'nosniff');
      const name = requestedImage(req.path);
      if (name === undefined) return noSuchImage(req, res, next);
      this.send(name, req, res, next).catch(next);
    };
  }

  /** The store on `client` (not owned), with the bucket's indexes. */
  static async create(
    client: MongoClient,
    dbName: string,
    options: GridFsImageStoreOptions = {},
  ): Promise<GridFsImageStore> {
    const db = client.db(dbName);
    const bucketName = options.bucketName ?? 'images';
    // The indexes the driver would make on the first upload, made up front.
    await db.collection(`${bucketName}.files`).createIndex({ filename: 1, uploadDate: 1 });
    await db
      .collection(`${bucketName}.chunks`)
      .createIndex({ files_id: 1, n: 1 }, { unique: true });
    return new GridFsImageStore(
      client,
      dbName,
      new GridFSBucket(db, { bucketName }),
      db.collection(`${bucketName}.chunks`),
    );
  }

  save(source: Buffer | Readable, options: SaveOptions = {}): Promise<string> {
    return streamImage(source, options, (name, type) => {
      const stream = this.bucket.openUploadStream(name, {
        metadata: { contentType: IMAGE_CONTENT_TYPES[type] },
      });
      return {
        stream,
        // The files document is written only when the stream finishes: until then the image is
        // neither served nor listed. A failed upload's chunks go (the driver's `abort`); a chunk
        // whose insert was in flight then is swept once more a moment later.
        discard: async () => {
          await stream.abort().catch(() => undefined);
          const sweep = () =>
            this.chunks.deleteMany({ files_id: stream.id }).catch(() => undefined);
          await sweep();
          setTimeout(() => void sweep(), 1000).unref();
        },
      };
    });
  }

  async remove(url: string | null | undefined): Promise<void> {
    const name = imageNameOf(url);
    if (name === undefined) return;
    for (const file of await this.bucket.find({ filename: name }).toArray()) {
      await this.bucket.delete(file._id).catch(() => undefined);
    }
  }

  async list(): Promise<string[]> {
    const files = await this.bucket.find({}, { projection: { filename: 1 } }).toArray();
    const names = [...new Set(files.map((file) => file.filename))];
    return names.sort().map((name) => `${UPLOADS_PATH}/${name}`);
  }

  async ping(): Promise<void> {
    await this.client.db(this.dbName).command({ ping: 1 });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async send(name: string, req: Request, res: Response, next: NextFunction): Promise<void> {
    const file = await this.bucket
      .find({ filename: name }, { sort: { uploadDate: -1 }, limit: 1 })
      .next();
    if (!file) {
      noSuchImage(req, res, next);
      return;
    }
    const contentType = (file.metadata as { contentType?: unknown } | undefined)?.contentType;
    const type = name.slice(name.lastIndexOf('.') + 1) as ImageType;
    res.setHeader(
      'Content-Type',
      typeof contentType === 'string' ? contentType : IMAGE_CONTENT_TYPES[type],
    );
    res.setHeader('Cache-Control', IMAGE_CACHE_CONTROL);
    res.setHeader('ETag', `"${name}"`);
    res.setHeader('Last-Modified', file.uploadDate.toUTCString());
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(file.length));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // Its first chunk read before the answer is committed to: a file removed since it was found
    // (its auction cancelled a moment ago) is a 404, not a connection cut after a 200.
    const download = this.bucket.openDownloadStream(file._id);
    const chunks = download[Symbol.asyncIterator]() as AsyncIterator<Buffer, undefined>;
    const first = await chunks.next().catch(() => undefined);
    if (first === undefined || (first.done === true && file.length > 0)) {
      await chunks.return?.();
      for (const header of SERVED_HEADERS) res.removeHeader(header);
      noSuchImage(req, res, next);
      return;
    }
    async function* body() {
      if (first?.done === false) yield first.value;
      for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
        yield next.value;
    }
    // A client that goes away (or a failed read later on) ends both streams: nothing more to do.
    await pipeline(Readable.from(body()), res).catch(() => undefined);
  }
}
