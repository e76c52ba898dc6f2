import { API_BASE, errorCatalog, operations } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createAuctionOverHttp, signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

/** Percent-escapes no decoder accepts: cut short, not hex, and a byte that starts no UTF-8. */
const MALFORMED = ['%E0%A4%A', '%', '%zz', '%C0'];

const withParameters = operations.filter((operation) => operation.path.includes('{'));

let server: TestServer;
let seller: TestUser;
let auctionId: string;

beforeAll(async () => {
  server = await startTestServer();
  seller = await signUpAndLogIn(server);
  auctionId = await createAuctionOverHttp(seller.client);
});
afterAll(() => server.cleanup());

describe('a path parameter that is not valid percent-encoding', () => {
  it('walks every route of the table that takes one', () => {
    expect(withParameters.map((op) => `${op.method.toUpperCase()} ${op.path}`)).toEqual(
      expect.arrayContaining([
        'POST /auction/watch/{id}',
        'DELETE /auction/watch/{id}',
        'PATCH /auction/editAuction/{id}',
        'DELETE /auction/deleteAuction/{id}',
        'GET /audit/auctions/{id}/events',
      ]),
    );
  });

  it.each(withParameters.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s answers 400 with the envelope, and nothing is logged as an error',
    async (_name, operation) => {
      for (const malformed of MALFORMED) {
        const path = operation.path.replace(/\{\w+\}/g, malformed);
        const logged = server.logs.length;
        const res = await seller.client.request(
          operation.method.toUpperCase(),
          `${API_BASE}${path}`,
        );
        expect(res.status, `${path}`).toBe(400);
        expect(res.body).toEqual({ success: false, message: errorCatalog.MALFORMED_PATH.message });
        expect(server.logs.slice(logged)).toEqual([]);
      }
    },
  );

  it('leaves the same routes working with a well-formed id', async () => {
    const watched = await seller.client.post(`${API_BASE}/auction/watch/${auctionId}`);
    expect(watched.status).toBe(200);
  });
});
