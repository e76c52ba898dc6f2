import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS } from '@auction/contracts/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestUser, signUpAndLogIn } from '../../testing/fixtures';
import {
  PNG_1X1,
  type TestClient,
  type TestServer,
  startTestServer,
} from '../../testing/test-server';
import { MEBIBYTE } from './image-upload';

const A = '/api/v1/auction';

const auctionFields = () => ({
  title: 'Pocket watch',
  description: 'Silver, 1900s',
  category: 'antiques',
  startingPrice: '150',
  auctionDate: new Date(Date.now() + 3 * DAY_MS).toISOString(),
});

/** A PNG by its first bytes, `bytes` long in all. */
const pngOf = (bytes = PNG_1X1.length): Blob =>
  new Blob([new Uint8Array(PNG_1X1), new Uint8Array(Math.max(0, bytes - PNG_1X1.length))], {
    type: 'image/png',
  });

const createAuction = (client: TestClient, image?: Blob) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(auctionFields())) form.set(key, value);
  if (image) form.set('image', image, 'photo.png');
  return client.post(`${A}/createAuction`, { form });
};

const signupWithPhoto = (server: TestServer, email: string) => {
  const form = new FormData();
  for (const [key, value] of Object.entries({
    firstName: 'Photo',
    lastName: 'Graph',
    email,
    password: 'Secret123',
    confirmPassword: 'Secret123',
  }))
    form.set(key, value);
  form.set('image', pngOf(), 'me.png');
  return server.client().post('/api/v1/auth/signup', { form });
};

/** Every file under DATA_DIR/uploads, partial ones included (or GridFS's list with MongoDB). */
const storedFiles = async (server: TestServer): Promise<string[]> =>
  server.storeEnv.MONGODB_URL
    ? server.deps.images.list()
    : readdirSync(join(server.dataDir, 'uploads')).sort();

const auctionsOf = async (user: TestUser): Promise<string[]> =>
  ((await user.client.get(`${A}/getAuctions`)).body.auctions as { _id: string }[]).map(
    (a) => a._id,
  );

describe('limits on new auctions and uploads', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  it('answers 429 past RATE_LIMIT_AUCTIONS per user and RATE_LIMIT_AUCTIONS_PER_ADDRESS, creating nothing', async () => {
    server = await startTestServer({
      RATE_LIMIT_AUCTIONS: '2',
      RATE_LIMIT_AUCTIONS_PER_ADDRESS: '3',
    });
    const [alice, bob] = [await signUpAndLogIn(server), await signUpAndLogIn(server)];
    expect((await createAuction(alice.client)).status).toBe(201);
    expect((await createAuction(alice.client)).status).toBe(201);
    const files = await storedFiles(server);
    const refused = await createAuction(alice.client, pngOf());
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many new auctions, please try again later',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await auctionsOf(alice)).toHaveLength(2);
    expect(await storedFiles(server)).toEqual(files);

    // Another user of the same address: the address's third is the last.
    expect((await createAuction(bob.client)).status).toBe(201);
    const fromAddress = await createAuction(bob.client);
    expect(fromAddress.status).toBe(429);
    expect(fromAddress.body.message).toBe(
      'Too many new auctions from this address, please try again later',
    );
    expect(await auctionsOf(bob)).toHaveLength(1);
  });

  it('answers 429 past RATE_LIMIT_UPLOADS per user and per address (sign-up photos too), storing nothing', async () => {
    server = await startTestServer({
      RATE_LIMIT_UPLOADS: '2',
      RATE_LIMIT_UPLOADS_PER_ADDRESS: '3',
    });
    const alice = await signUpAndLogIn(server);
    expect((await createAuction(alice.client, pngOf())).status).toBe(201);
    expect((await createAuction(alice.client, pngOf())).status).toBe(201);
    const files = await storedFiles(server);
    expect(files).toHaveLength(2);

    const refused = await createAuction(alice.client, pngOf());
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many images uploaded, please try again later',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await auctionsOf(alice)).toHaveLength(2);
    expect(await storedFiles(server)).toEqual(files);
    // Without an image the user may still create.
    expect((await createAuction(alice.client)).status).toBe(201);

    // The address's third image is a sign-up photo; its fourth is refused, and no account made.
    expect((await signupWithPhoto(server, 'third@example.com')).status).toBe(201);
    const fourth = await signupWithPhoto(server, 'fourth@example.com');
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe('Too many images uploaded, please try again later');
    expect(await server.deps.accounts.byEmail('fourth@example.com')).toBeUndefined();
    expect(await storedFiles(server)).toHaveLength(3);
  });

  it('answers 429 once RATE_LIMIT_UPLOAD_MB is used up, mid-upload, leaving no file behind', async () => {
    server = await startTestServer({ RATE_LIMIT_UPLOAD_MB: '3' });
    const alice = await signUpAndLogIn(server);
    // 1.5 MiB costs two (each mebibyte started counts).
    expect((await createAuction(alice.client, pngOf(1.5 * MEBIBYTE))).status).toBe(201);
    const files = await storedFiles(server);
    const refused = await createAuction(alice.client, pngOf(1.5 * MEBIBYTE));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too much image data uploaded, please try again later');
    expect(await auctionsOf(alice)).toHaveLength(1);
    expect(await storedFiles(server)).toEqual(files);
    // Another user has their own budget.
    const bob = await signUpAndLogIn(server);
    expect((await createAuction(bob.client, pngOf(2 * MEBIBYTE))).status).toBe(201);
  });
});
