import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeImageStoreContract } from './image-store.contract';
import { FileImageStore } from './uploads';

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
});
