import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type AuctionView } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, commandMetadata, signUpAndLogIn } from '../../../testing/fixtures';
import { PNG_1X1, type TestServer, startTestServer } from '../../../testing/test-server';

const A = '/api/v1/auction';

let server: TestServer;
let seller: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  seller = await signUpAndLogIn(server);
});
afterAll(() => server.cleanup());

const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const png = () => new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' });
const gif = () =>
  new Blob([new Uint8Array(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'))], {
    type: 'image/gif',
  });

const formOf = (fields: Record<string, string>, image?: Blob, filename = 'photo.png') => {
  const form = new FormData();
  // The image first, so that it is stored before a bad field is read.
  if (image) form.set('image', image, filename);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
};

const auctionFields = (overrides: Record<string, string> = {}) => ({
  title: 'Enamel sign',
  description: 'Railway, 1930s',
  category: 'antiques',
  startingPrice: '150',
  auctionDate: inDays(3),
  ...overrides,
});

const createWithImage = async (
  headers: Record<string, string> = {},
  fields = auctionFields(),
): Promise<AuctionView> => {
  const res = await seller.client.post(
    `${A}/createAuction`,
    { form: formOf(fields, png()) },
    headers,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.auction as AuctionView;
};

/** Every file under DATA_DIR/uploads, partial ones included (or GridFS's list with MongoDB). */
const storedFiles = async (): Promise<string[]> =>
  server.storeEnv.MONGODB_URL
    ? (await server.deps.images.list()).map((url) => url.slice('/uploads/'.length))
    : readdirSync(join(server.dataDir, 'uploads')).sort();

const status = async (url: string) => (await fetch(`${server.url}${url}`)).status;

const nameOf = (url: string) => url.slice('/uploads/'.length);

describe('images nothing references any more are removed', () => {
  it("removes a cancelled auction's image once the cancellation is answered", async () => {
    const auction = await createWithImage();
    const url = auction.image?.url as string;
    expect(await status(url)).toBe(200);
    const res = await seller.client.delete(`${A}/deleteAuction/${auction._id}`);
    expect(res.status).toBe(200);
    expect(await status(url)).toBe(404);
    expect(await storedFiles()).not.toContain(nameOf(url));
  });

  it('removes the image of an auction cancelled without a route (as an account deletion does)', async () => {
    const auction = await createWithImage();
    const url = auction.image?.url as string;
    const outcome = await server.deps.engine.send({
      type: 'CancelAuction',
      data: { auctionId: auction._id, reason: 'account-deleted' },
      metadata: commandMetadata(seller.id),
    });
    expect(outcome.ok).toBe(true);
    const started = Date.now();
    while ((await status(url)) === 200 && Date.now() - started < 5000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await status(url)).toBe(404);
    expect(await storedFiles()).not.toContain(nameOf(url));
  });

  it('keeps only the last image when edits replace it concurrently, the new one served', async () => {
    const auction = await createWithImage();
    const before = (await storedFiles()).filter((name) => name !== nameOf(auction.image!.url));
    const fields = {
      title: 'Enamel sign',
      description: 'Railway, 1930s',
      startingPrice: '150',
      auctionEndTime: auction.auctionEndTime,
    };
    const edits = await Promise.all(
      Array.from({ length: 4 }, () =>
        seller.client.patch(`${A}/editAuction/${auction._id}`, {
          form: formOf(fields, gif(), 'new.gif'),
        }),
      ),
    );
    expect(edits.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const current = (
      await server.client().get(`${A}/fetchSpecificAuction?auctionId=${auction._id}`)
    ).body.auctionDetails.image.url as string;
    expect(current).toMatch(/\.gif$/);
    expect(await status(current)).toBe(200);
    expect(await status(auction.image!.url)).toBe(404);
    expect(await storedFiles()).toEqual([...before, nameOf(current)].sort());
  });

  it('keeps the first image of a create retried with its Idempotency-Key, and only that one', async () => {
    const before = await storedFiles();
    const key = { 'Idempotency-Key': `retry-${Date.now()}` };
    // A retry sends the very same request: the fields and the image.
    const fields = auctionFields();
    const first = await createWithImage(key, fields);
    const retry = await createWithImage(key, fields);
    expect(retry._id).toBe(first._id);
    expect(retry.image?.url).toBe(first.image?.url);
    expect(await storedFiles()).toEqual([...before, nameOf(first.image!.url)].sort());
  });

  it('refuses the key sent again with another image (422), and keeps only the first image', async () => {
    const before = await storedFiles();
    const key = { 'Idempotency-Key': `other-image-${Date.now()}` };
    const fields = auctionFields();
    const first = await createWithImage(key, fields);
    const other = await seller.client.post(
      `${A}/createAuction`,
      { form: formOf(fields, gif(), 'photo.gif') },
      key,
    );
    expect(other.status).toBe(422);
    expect(await storedFiles()).toEqual([...before, nameOf(first.image!.url)].sort());
  });

  it('removes the image of a create refused for a bad field read after the image', async () => {
    const before = await storedFiles();
    const res = await seller.client.post(`${A}/createAuction`, {
      form: formOf(auctionFields({ startingPrice: '12.345' }), png()),
    });
    expect(res.status).toBe(400);
    const forbidden = await signUpAndLogIn(server);
    const mine = await createWithImage();
    const stranger = await forbidden.client.patch(`${A}/editAuction/${mine._id}`, {
      form: formOf({ title: 'Mine now' }, png()),
    });
    expect(stranger.status).toBe(403);
    expect(await storedFiles()).toEqual([...before, nameOf(mine.image!.url)].sort());
  });

  it('removes the photo of a sign-up refused because the e-mail is taken', async () => {
    const before = await storedFiles();
    const form = formOf(
      {
        firstName: 'Second',
        lastName: 'Comer',
        email: seller.email,
        password: 'Secret123',
        confirmPassword: 'Secret123',
      },
      png(),
    );
    const res = await server.client().post('/api/v1/auth/signup', { form });
    expect(res.status).toBe(409);
    expect(await storedFiles()).toEqual(before);
  });

  it('leaves nothing of an upload whose client goes away halfway', async () => {
    const before = await storedFiles();
    const url = new URL(server.url);
    const boundary = '----halfwayboundary';
    const socket = connect(Number(url.port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/auth/signup HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${4 * 1024 * 1024}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    socket.write(Buffer.concat([PNG_1X1, Buffer.alloc(1024 * 1024)]));
    // Until the server has written some of it, then the client is gone.
    const started = Date.now();
    while ((await storedFiles()).length === before.length && Date.now() - started < 5000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // The file store shows the partial file (`.<name>.partial`); GridFS lists only whole files.
    if (!server.storeEnv.MONGODB_URL) expect((await storedFiles()).length).toBe(before.length + 1);
    socket.destroy();
    const settled = Date.now();
    while (Date.now() - settled < 5000) {
      if ((await storedFiles()).length === before.length) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await storedFiles()).toEqual(before);
  });
});
