import { errorCatalog } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-server';

let server: TestServer;
// The document as a client reads it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;

beforeAll(async () => {
  server = await startTestServer();
  doc = (await server.client().get('/api/v1/openapi.json')).body;
});
afterAll(() => server.cleanup());

const responsesOf = (method: string, path: string): Record<string, { description: string }> =>
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return
  doc.paths[path][method].responses;

describe('OpenAPI: the answers of the body and rate guards', () => {
  it('documents 408, 429 and 503 on uploads, 408 and 429 on logins and bids, none on a plain read', () => {
    for (const [method, path] of [
      ['post', '/auth/signup'],
      ['post', '/auction/createAuction'],
      ['patch', '/auction/editAuction/{id}'],
    ] as const) {
      const responses = responsesOf(method, path);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['408', '429', '503', '4XX']));
      expect(responses['408']?.description).toContain(errorCatalog.REQUEST_TIMEOUT.message);
      expect(responses['503']?.description).toContain(errorCatalog.UPLOADS_BUSY.message);
      expect(responses['429']).toMatchObject({
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
      });
    }
    for (const [method, path] of [
      ['post', '/auth/login'],
      ['post', '/bid/placeBid'],
    ] as const) {
      expect(Object.keys(responsesOf(method, path))).toEqual(
        expect.arrayContaining(['408', '429']),
      );
      expect(responsesOf(method, path)['503']).toBeUndefined();
    }
    const read = responsesOf('get', '/auction/fetchSpecificAuction');
    expect(Object.keys(read).filter((status) => /^\d+$/.test(status))).toEqual(['200']);
  });
});
