import { API_BASE, rules } from '@auction/contracts';
import { DAY_MS, formatWholeCents, startingPriceMessages } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

interface Layer {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown; readonly methods: Record<string, boolean> };
  readonly handle: { readonly stack?: readonly Layer[] };
}

/** `METHOD /path` of every route the Express routers register under a prefix, `:id` as `{id}`. */
const registeredRoutes = (stack: readonly Layer[], prefix = ''): string[] =>
  stack.flatMap((layer) => {
    const path = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    if (layer.route) {
      const full = `${prefix}${String(layer.route.path)}`.replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all' && method !== 'head')
        .map((method) => `${method.toUpperCase()} ${full}`);
    }
    return layer.handle.stack ? registeredRoutes(layer.handle.stack, `${prefix}${path}`) : [];
  });

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` anywhere in a JSON value. */
const refsIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [v] : refsIn(v),
  );
};

let server: TestServer;
// The document as a client reads it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.client().get(`${API_BASE}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(() => server.cleanup());

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers).toEqual([{ url: API_BASE }]);
    expect(doc.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'auction.sid',
    });
  });

  it('lists exactly the routes the routers register', () => {
    const { app } = createApp(server.deps, () => server.port);
    const apiLayer = (app.router.stack as unknown as Layer[]).find(
      (layer) => layer.rawPath === API_BASE,
    );
    expect(apiLayer?.handle.stack).toBeDefined();
    const registered = registeredRoutes(apiLayer?.handle.stack ?? []).sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    expect(registered.length).toBeGreaterThan(25);
    expect(documented).toEqual(registered);
  });

  it('describes every operation completely: ids, parameters, bodies, responses, references', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, typeof doc>>,
    )) {
      expect(path).toMatch(/^\/[\w\-/{}.]+$/);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS).toContain(method);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(typeof op.summary).toBe('string');
        expect(Array.isArray(op.security)).toBe(true);
        const inPath = op.parameters
          .filter((p: { in: string }) => p.in === 'path')
          .map((p: { name: string; required: boolean }) => {
            expect(p.required).toBe(true);
            return p.name;
          })
          .sort();
        expect(inPath).toEqual(templated);
        for (const parameter of op.parameters) {
          expect(['path', 'query']).toContain(parameter.in);
          expect(typeof parameter.schema).toBe('object');
        }
        if (op.requestBody) {
          expect(Object.keys(op.requestBody.content)).toContain('application/json');
          for (const media of Object.values<{ schema: unknown }>(op.requestBody.content))
            expect(media.schema).toMatchObject({ type: 'object' });
        }
        const statuses = Object.keys(op.responses);
        expect(statuses.some((s) => /^[23]\d\d$/.test(s))).toBe(true);
        expect(statuses).toContain('4XX');
        if (method !== 'get' && !path.startsWith('/auth/google'))
          expect(statuses.some((s) => /^20\d$/.test(s))).toBe(true);
      }
    }
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(30);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(doc.components.schemas[ref.split('/').pop() as string]).toBeDefined();
    }
  });

  it('derives inputs from the same zod schemas the routes parse with', () => {
    const placeBid = doc.paths['/bid/placeBid'].post;
    expect(placeBid.security).toEqual([{ session: [] }]);
    const body = placeBid.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['productId', 'bidAmount']);
    expect(body.properties.bidAmount.type).toBe('number');
    expect(body.properties.productId).toMatchObject({ type: 'string', maxLength: 64 });

    const create = doc.paths['/auction/createAuction'].post;
    expect(create.requestBody.content['multipart/form-data'].schema.properties.image).toBeDefined();
    expect(create.requestBody.content['application/json'].schema.properties.startingPrice).toEqual({
      type: 'number',
      minimum: rules.minStartingPriceCents / 100,
      maximum: 1_000_000_000,
    });
    expect(doc.paths['/auction/fetchAllAuctions'].get.security).toEqual([]);
    const detail = doc.paths['/auction/fetchSpecificAuction'].get.parameters;
    expect(detail).toEqual([
      expect.objectContaining({ name: 'auctionId', in: 'query', required: true }),
    ]);
    expect(doc.components.schemas.AuctionView.properties.currentBid).toEqual({ type: 'number' });
  });
});

describe('the minimum starting price, written once (rules.minStartingPriceCents)', () => {
  it('is what the document says and what the API answers, a cent below and at it', async () => {
    const minimum = rules.minStartingPriceCents / 100;
    const create = doc.paths['/auction/createAuction'].post.requestBody.content;
    for (const media of ['application/json', 'multipart/form-data'])
      expect(create[media].schema.properties.startingPrice.minimum).toBe(minimum);

    const seller = await signUpAndLogIn(server);
    const attempt = (startingPrice: number) =>
      seller.client.post(`${API_BASE}/auction/createAuction`, {
        json: {
          title: 'Minimum starting price',
          description: 'Priced at the edge',
          category: 'antiques',
          startingPrice,
          auctionDate: new Date(Date.now() + 3 * DAY_MS).toISOString(),
        },
      });
    const below = await attempt(minimum - 0.01);
    expect(below.status).toBe(400);
    expect(below.body.message).toBe(startingPriceMessages.tooLow);
    expect(below.body.message).toBe(
      `Starting price must be at least ${formatWholeCents(rules.minStartingPriceCents)}`,
    );
    const at = await attempt(minimum);
    expect(at.status, JSON.stringify(at.body)).toBe(201);
    expect(at.body.auction.startingPrice).toBe(minimum);
  });
});
