import { readdirSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1, type TestServer, startTestServer } from '../../testing/test-server';
import { MEBIBYTE } from './image-upload';

/** A full collection on demand, so that only what is still held is measured. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Fewer on MongoDB, whose GridFS (FerretDB in tests) takes them in far slower than files.
const UPLOADS = process.env.TEST_STORES === 'mongodb' ? 16 : 24;
const IMAGE_BYTES = 9 * MEBIBYTE;
/** Each upload stops here until all have sent this much. */
const HALF = 8 * MEBIBYTE;
const BOUNDARY = '----memoryboundary';
/** One chunk of zeros every client writes again and again (the clients hold nothing more). */
const CHUNK = Buffer.alloc(256 * 1024);

const head = (email: string): Buffer => {
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return Buffer.concat([
    Buffer.from(
      field('firstName', 'Big') +
        field('lastName', 'Picture') +
        field('email', email) +
        field('password', 'Secret123') +
        field('confirmPassword', 'Secret123') +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    PNG_1X1,
  ]);
};
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

const write = (socket: Socket, data: Buffer): Promise<void> =>
  new Promise((resolve, reject) =>
    socket.write(data, (error) => (error ? reject(error) : resolve())),
  );

/** Writes `bytes` zeros from the one shared chunk, one chunk in flight at a time. */
const writeZeros = async (socket: Socket, bytes: number): Promise<void> => {
  for (let left = bytes; left > 0; left -= CHUNK.length)
    await write(socket, left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left));
};

/** A sign-up whose 9 MiB photo arrives in two parts (`HALF`, then the rest); its answer. */
const upload = (server: TestServer, email: string) => {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), '127.0.0.1');
  const start = head(email);
  const padding = IMAGE_BYTES - PNG_1X1.length;
  const length = start.length + padding + TAIL.length;
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
  const answered = new Promise<number | undefined>((resolve) => {
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1])));
    socket.on('error', () => undefined);
  });
  const firstHalf = (async () => {
    await new Promise((resolve) => socket.once('connect', resolve));
    await write(
      socket,
      Buffer.from(
        `POST /api/v1/auth/signup HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${server.url}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${length}\r\nConnection: close\r\n\r\n`,
      ),
    );
    await write(socket, start);
    await writeZeros(socket, HALF - PNG_1X1.length);
  })();
  const rest = async () => {
    await writeZeros(socket, padding - (HALF - PNG_1X1.length));
    await write(socket, TAIL);
    return answered;
  };
  return { firstHalf, rest };
};

/** Bytes the file store has received into its partial files so far. */
const partialBytes = (server: TestServer): number =>
  readdirSync(join(server.dataDir, 'uploads'))
    .filter((name) => name.endsWith('.partial'))
    .reduce((sum, name) => sum + statSync(join(server.dataDir, 'uploads', name)).size, 0);

describe('uploads stream to the image store', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ UPLOADS_IN_PROGRESS: '100', BODY_TIMEOUT_MS: '120000' });
  });
  afterAll(() => server.cleanup());

  it(`holds far less than ${UPLOADS} uploads x their size in memory while they arrive`, async () => {
    gc();
    const baseline = process.memoryUsage();
    const uploads = Array.from({ length: UPLOADS }, (_, i) =>
      upload(server, `big${i}-${Date.now()}@example.com`),
    );
    await Promise.all(uploads.map((u) => u.firstHalf));
    // Until the server has read what was sent (the file store shows it; GridFS: a moment).
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      if (!server.storeEnv.MONGODB_URL && partialBytes(server) >= UPLOADS * (HALF - MEBIBYTE))
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    gc();
    const during = process.memoryUsage();
    const held = {
      arrayBuffers: during.arrayBuffers - baseline.arrayBuffers,
      heapUsed: during.heapUsed - baseline.heapUsed,
    };
    // Held in memory, what the uploads have sent would be UPLOADS x 8 MiB. Streamed, each holds a
    // few buffers: about 0.6 MiB to files, 1.5 MiB to GridFS (a 255 KiB chunk, its copy in the
    // insert).
    const bound = UPLOADS * 2.5 * MEBIBYTE;
    expect(held.arrayBuffers, JSON.stringify(held)).toBeLessThan(bound);
    expect(held.heapUsed, JSON.stringify(held)).toBeLessThan(bound);

    const statuses = await Promise.all(uploads.map((u) => u.rest()));
    expect(statuses).toEqual(Array.from({ length: UPLOADS }, () => 201));
    const stored = await server.deps.images.list();
    expect(stored).toHaveLength(UPLOADS);
    for (const url of stored.slice(0, 3)) {
      const res = await fetch(`${server.url}${url}`);
      expect(Number(res.headers.get('content-length'))).toBe(IMAGE_BYTES);
      await res.arrayBuffer();
    }
    if (!server.storeEnv.MONGODB_URL)
      expect(readdirSync(join(server.dataDir, 'uploads'))).toHaveLength(UPLOADS);
  }, 240_000);
});
