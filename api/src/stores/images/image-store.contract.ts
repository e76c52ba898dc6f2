import { randomBytes } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DomainError } from '@auction/contracts';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageStore } from './image-store';
import { UPLOADS_PATH } from './image-store';

/** What the contract suite needs from an adapter under test. */
export interface ImageStoreContractSubject {
  readonly store: ImageStore;
  /** Closes the store and opens it again on the same data. */
  readonly reopen: () => Promise<ImageStore>;
  /** Closes whichever store is open and removes its data. */
  readonly cleanup: () => Promise<void>;
}

const bytes = (head: readonly number[], size = 64): Buffer =>
  Buffer.concat([Buffer.from(head), randomBytes(Math.max(0, size - head.length))]);

/** The smallest headers each type is recognised by, then random bytes. */
const samples = {
  jpg: { type: 'image/jpeg', data: () => bytes([0xff, 0xd8, 0xff, 0xe0]) },
  png: { type: 'image/png', data: () => bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  gif: { type: 'image/gif', data: () => bytes([...Buffer.from('GIF89a')]) },
  webp: {
    type: 'image/webp',
    data: () => bytes([...Buffer.from('RIFF'), 0x24, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]),
  },
} as const;

const unsupported = (error: unknown): boolean =>
  error instanceof DomainError && error.code === 'UNSUPPORTED_MEDIA_TYPE';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The one suite every image store adapter passes: `serve` mounted at /uploads on a real HTTP
 * server, as the app mounts it. Each test opens a fresh subject.
 */
export function describeImageStoreContract(
  name: string,
  open: () => Promise<ImageStoreContractSubject>,
): void {
  describe(`image store contract: ${name}`, () => {
    let subject: ImageStoreContractSubject;
    let store: ImageStore;
    let server: Server;
    let port: number;

    /** A request with the path sent exactly as written (fetch would normalise `..`). */
    const raw = (path: string, method = 'GET'): Promise<Raw> =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });

    beforeEach(async () => {
      subject = await open();
      store = subject.store;
      const app = express();
      // The store in use at request time, so a reopened store serves too.
      app.use(UPLOADS_PATH, (req, res, next) => store.serve(req, res, next));
      app.use((_req, res) => {
        res.status(418).end();
      });
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      port = (server.address() as AddressInfo).port;
    });

    afterEach(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await subject.cleanup();
    });

    it('stores each image type under a random /uploads/ name and serves it back as stored', async () => {
      for (const [ext, sample] of Object.entries(samples)) {
        const data = sample.data();
        const url = await store.save(data);
        expect(url).toMatch(new RegExp(`^/uploads/[0-9a-f]{32}\\.${ext}$`));
        const res = await raw(url);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe(sample.type);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(Number(res.headers['content-length'])).toBe(data.length);
        expect(res.body.equals(data)).toBe(true);
      }
    });

    it('gives the same bytes saved twice two names', async () => {
      const data = samples.png.data();
      const [a, b] = await Promise.all([store.save(data), store.save(data)]);
      expect(a).not.toBe(b);
      expect((await raw(a)).body.equals(data)).toBe(true);
      expect((await raw(b)).body.equals(data)).toBe(true);
    });

    it('serves a large image whole, and answers HEAD without a body', async () => {
      const data = bytes([0xff, 0xd8, 0xff, 0xe1], 3 * 1024 * 1024 + 17);
      const url = await store.save(data);
      const res = await raw(url);
      expect(res.status).toBe(200);
      expect(res.body.equals(data)).toBe(true);
      const head = await raw(url, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe('image/jpeg');
      expect(head.body.length).toBe(0);
    });

    it('keeps serving after a client goes away mid-download', async () => {
      const data = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 4 * 1024 * 1024);
      const url = await store.save(data);
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: url }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', (error) =>
            (error as { code?: string }).code ? resolve() : reject(error),
          );
          req.end();
        });
      }
      const res = await raw(url);
      expect(res.status).toBe(200);
      expect(res.body.equals(data)).toBe(true);
    });

    it('refuses anything that is not a JPEG, PNG, WebP or GIF by its bytes', async () => {
      const refused = [
        Buffer.alloc(0),
        Buffer.from('plain text, not an image'),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        Buffer.from('<!doctype html><html></html>'),
        Buffer.from('GIF89b....'),
        Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '),
        Buffer.from([0xff, 0xd8]),
      ];
      for (const data of refused) await expect(store.save(data)).rejects.toSatisfy(unsupported);
    });

    it('removes an image it saved: then 404; foreign URLs are ignored', async () => {
      const kept = await store.save(samples.gif.data());
      const gone = await store.save(samples.webp.data());
      await store.remove(gone);
      expect((await raw(gone)).status).toBe(404);
      await store.remove(gone);
      for (const url of [
        null,
        undefined,
        '',
        'https://example.com/uploads/x.png',
        '/uploads/../package.json',
        `/uploads/${'0'.repeat(32)}.png`,
        kept.replace('/uploads/', '/elsewhere/'),
        `${kept}/`,
      ]) {
        await store.remove(url);
      }
      const res = await raw(kept);
      expect(res.status).toBe(200);
    });

    it('answers 404 for unknown names and for any path that is not an image name', async () => {
      const url = await store.save(samples.png.data());
      const name = url.slice('/uploads/'.length);
      const paths = [
        `/uploads/${'0'.repeat(32)}.png`,
        `/uploads/${name.replace('.png', '.jpg')}`,
        `/uploads/${name.toUpperCase()}`,
        `/uploads/${name}/`,
        `/uploads/${name}/x`,
        '/uploads/',
        '/uploads/..%2F..%2Fpackage.json',
        '/uploads/../../package.json',
        '/uploads/%2e%2e/%2e%2e/package.json',
        '/uploads/..%5c..%5cpackage.json',
        '/uploads/.hidden',
        '/uploads/%00.png',
        '/uploads/x.png',
      ];
      for (const path of paths) {
        const res = await raw(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(JSON.parse(res.body.toString())).toEqual({ success: false, message: 'Not found' });
      }
      expect((await raw(`${url}?v=1`)).status).toBe(200);
      expect((await raw(url, 'POST')).status).toBe(418);
    });

    it('lists the URLs of the images it holds', async () => {
      expect(await store.list()).toEqual([]);
      const urls = await Promise.all([
        store.save(samples.jpg.data()),
        store.save(samples.png.data()),
        store.save(samples.gif.data()),
      ]);
      expect(await store.list()).toEqual([...urls].sort());
      await store.remove(urls[1]);
      expect(await store.list()).toEqual([urls[0], urls[2]].sort());
    });

    it('keeps images across reopening', async () => {
      const data = samples.jpg.data();
      const url = await store.save(data);
      store = await subject.reopen();
      expect((await raw(url)).body.equals(data)).toBe(true);
      expect(await store.list()).toEqual([url]);
    });

    it('stores an image streamed in small chunks, its first bytes split across them', async () => {
      const data = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 2 * 1024 * 1024 + 5);
      const chunks = [
        ...Array.from(data.subarray(0, 16), (byte) => Buffer.from([byte])),
        ...Array.from({ length: Math.ceil((data.length - 16) / 65_536) }, (_, i) =>
          data.subarray(16 + i * 65_536, 16 + (i + 1) * 65_536),
        ),
      ];
      const url = await store.save(Readable.from(chunks));
      expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
      expect((await raw(url)).body.equals(data)).toBe(true);
    });

    it('refuses a stream past maxBytes (PAYLOAD_TOO_LARGE) or failing midway, keeping nothing', async () => {
      const data = bytes([0xff, 0xd8, 0xff, 0xe0], 1024 * 1024);
      const tooLarge = (error: unknown) =>
        error instanceof DomainError && error.code === 'PAYLOAD_TOO_LARGE';
      await expect(
        store.save(Readable.from([data.subarray(0, 500_000), data.subarray(500_000)]), {
          maxBytes: 700_000,
        }),
      ).rejects.toSatisfy(tooLarge);
      await expect(store.save(data, { maxBytes: 1000 })).rejects.toSatisfy(tooLarge);
      const failing = new Readable({ read() {} });
      failing.push(data.subarray(0, 300_000));
      setTimeout(() => failing.destroy(new Error('client went away')), 50);
      await expect(store.save(failing)).rejects.toThrow('client went away');
      await expect(
        store.save(Readable.from([Buffer.from('not an image at all')])),
      ).rejects.toSatisfy(unsupported);
      expect(await store.list()).toEqual([]);
      expect(await store.save(Readable.from([data]), { maxBytes: data.length })).toMatch(/\.jpg$/);
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
