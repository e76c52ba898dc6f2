import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeImageStoreContract } from '../../stores/images/image-store.contract';
import { FileImageStore } from '../../stores/images/file-image-store';

describeImageStoreContract('files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uploads-'));
  const uploads = join(dir, 'uploads');
  let store = new FileImageStore(uploads);
  return Promise.resolve({
    store,
    reopen: () => {
      store = new FileImageStore(uploads);
      return Promise.resolve(store);
    },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
});

describe('FileImageStore', () => {
  it('keeps each image as one file named as in its URL, and deletes it on remove', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uploads-'));
    try {
      const store = new FileImageStore(join(dir, 'uploads'));
      const url = await store.save(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
      expect(readdirSync(store.dir)).toEqual([url.slice('/uploads/'.length)]);
      await store.remove(url);
      expect(readdirSync(store.dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes an image to a dot-file renamed when whole: a failed save leaves no file, and one left by a crash goes at open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uploads-'));
    try {
      const store = new FileImageStore(join(dir, 'uploads'));
      const failing = new Readable({ read() {} });
      failing.push(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200_000)]));
      const saving = store.save(failing);
      while (readdirSync(store.dir).length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(readdirSync(store.dir)).toEqual([
        expect.stringMatching(/^\.[0-9a-f]{32}\.jpg\.partial$/),
      ]);
      expect(await store.list()).toEqual([]);
      failing.destroy(new Error('gone'));
      await expect(saving).rejects.toThrow('gone');
      expect(readdirSync(store.dir)).toEqual([]);

      const crashed = `.${'a'.repeat(32)}.png.partial`;
      writeFileSync(join(store.dir, crashed), 'half an image');
      writeFileSync(join(store.dir, 'keep.txt'), 'not ours');
      new FileImageStore(store.dir);
      expect(readdirSync(store.dir)).toEqual(['keep.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
