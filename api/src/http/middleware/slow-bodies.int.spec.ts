import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../testing/fixtures';
import { PNG_1X1, type TestServer, startTestServer } from '../../testing/test-server';
import { SMALL_FORM_BYTES } from './body-limits';

const BOUNDARY = '----slowbodyboundary';
const SIGNUP = '/api/v1/auth/signup';

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

/** A signup form whose image part is open (the closing boundary never comes unless `end`). */
const formHead = (email: string): Buffer =>
  Buffer.concat([
    Buffer.from(
      field('firstName', 'Slow') +
        field('lastName', 'Loris') +
        field('email', email) +
        field('password', 'Secret123') +
        field('confirmPassword', 'Secret123') +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    PNG_1X1,
  ]);

interface RawAnswer {
  /** The status line's code, or undefined when the server closed without answering. */
  readonly status: number | undefined;
  readonly body: string;
  /** Milliseconds from the request's start to the end of the connection. */
  readonly afterMs: number;
}

/**
 * A raw multipart request that sends its headers and `head` at once, then one byte every
 * `trickleMs` (never finishing, the declared length is 10 MB), until the server answers or closes.
 */
const trickle = (
  server: TestServer,
  head: Buffer,
  trickleMs = 100,
): { socket: Socket; answer: Promise<RawAnswer> } => {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), '127.0.0.1');
  const started = Date.now();
  const chunks: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<RawAnswer>((resolve) => {
    const done = () => {
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({
        status: status === undefined ? undefined : Number(status),
        body: text.slice(text.indexOf('\r\n\r\n') + 4),
        afterMs: Date.now() - started,
      });
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
  socket.on('connect', () => {
    socket.write(
      `POST ${SIGNUP} HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${10 * 1024 * 1024 - 1}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(head);
    timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(Buffer.from([0x00]));
    }, trickleMs);
  });
  return { socket, answer };
};

/** What the image store holds (files under DATA_DIR/uploads, or GridFS with MongoDB). */
const storedImages = (server: TestServer) => server.deps.images.list();

const signupWithImage = (server: TestServer, email: string) => {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    firstName: 'Quick',
    lastName: 'Fox',
    email,
    password: 'Secret123',
    confirmPassword: 'Secret123',
  }))
    form.set(k, v);
  // Padded beyond a small form's length, so that it counts as an upload in progress.
  const image = Buffer.concat([PNG_1X1, Buffer.alloc(SMALL_FORM_BYTES)]);
  form.set('image', new Blob([image], { type: 'image/png' }), 'a.png');
  return server.client().post(SIGNUP, { form });
};

describe('slow request bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ BODY_TIMEOUT_MS: '800', UPLOADS_IN_PROGRESS: '2' });
  });
  afterAll(() => server.cleanup());

  it('cuts a trickled upload off with 408 after the body timeout, and stores nothing', async () => {
    const { answer } = trickle(server, formHead('slow-1@example.com'));
    const result = await answer;
    expect(result.status).toBe(408);
    expect(JSON.parse(result.body)).toEqual({
      success: false,
      message: expect.stringMatching(/took too long/i),
    });
    expect(result.afterMs).toBeGreaterThanOrEqual(700);
    expect(result.afterMs).toBeLessThan(5000);
    expect(await storedImages(server)).toEqual([]);
    // No account was made: the same e-mail signs up afterwards.
    expect((await signupWithImage(server, 'slow-1@example.com')).status).toBe(201);
  });

  it('refuses an upload beyond the bound in progress with 503 before reading it', async () => {
    const before = await storedImages(server);
    const slow = [
      trickle(server, formHead('slow-2@example.com')),
      trickle(server, formHead('slow-3@example.com')),
    ];
    // Both are in progress (their headers and first part are in).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await signupWithImage(server, 'third@example.com');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      success: false,
      message: expect.stringMatching(/too many uploads/i),
    });
    // Refused on its headers alone, long before the body timeout: none of its body is read.
    const early = await trickle(server, Buffer.alloc(0)).answer;
    expect(early.status).toBe(503);
    expect(early.afterMs).toBeLessThan(700);
    // A request without an upload is not held back by them, nor is a small form (a signup
    // without a photo: many people sign up at once).
    expect((await server.client().get('/api/v1/health')).status).toBe(200);
    const small = await signUpAndLogIn(server);
    expect(small.id).toEqual(expect.any(String));
    const results = await Promise.all(slow.map((s) => s.answer));
    expect(results.map((r) => r.status)).toEqual([408, 408]);
    // Once they are cut off their places are free, and nothing they sent stayed behind.
    expect(await storedImages(server)).toEqual(before);
    const normal = await signupWithImage(server, 'third@example.com');
    expect(normal.status).toBe(201);
    expect(await storedImages(server)).toHaveLength(before.length + 1);
  });

  it('cuts off a trickled JSON body too', async () => {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
    );
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toMatch(/took too long/i);
  });
});
