import {
  AuctionView,
  AuditEvent,
  AuditState,
  AuditVerification,
  BidView,
  CategoryView,
  HistoryEntry,
  Id,
  NotificationView,
  ProfileStatistics,
  ProfileView,
  RecentActivity,
  SessionUser,
  WinningItem,
  WinningsStatistics,
  WatchlistState,
  errorCatalog,
} from '@auction/contracts';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AuditPoint } from '../audit/audit-point';
import {
  AuctionFilters,
  AuctionIdParams,
  AuctionIdQuery,
  CreateAuctionBody,
  CreateCategoryBody,
  EditAuctionBody,
} from './auctions/schemas';
import { GoogleLoginBody } from './auth/google';
import { LoginBody, SignupBody } from './auth/schemas';
import { BidParams, BuyNowBody, EditBidBody, PlaceBidBody } from './bids/schemas';
import { MAX_IMAGE_BYTES } from './uploads';
import { NextCursor, pageFields } from './paging';
import { SESSION_COOKIE } from './session';
import { HistoryQuery } from './users/routes';

export const API_BASE = '/api/v1';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One route as the document describes it; `path` is under `/api/v1`, parameters as `{name}`. */
export interface Operation {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  /** `user`: needs a session cookie (401 without one). */
  readonly auth: 'none' | 'user';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The body may also come as multipart/form-data with an optional `image` file. */
  readonly multipart?: boolean;
  readonly ok: 200 | 201 | 302;
  /** What the success envelope carries beside `success` and `message`. */
  readonly payload?: Readonly<Record<string, z.ZodType>>;
  /** A body that is not the JSON envelope (the document itself, an NDJSON export). */
  readonly raw?: { readonly contentType: string; readonly schema?: z.ZodType };
}

const AuditIdParams = z.object({ id: Id });

/** Every route of `/api/v1`; a test checks this list against what the routers register. */
export const operations: readonly Operation[] = [
  { method: 'get', path: '/health', summary: 'The server can serve', auth: 'none', ok: 200 },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    auth: 'none',
    ok: 200,
    raw: { contentType: 'application/json' },
  },
  {
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account (optional photo)',
    auth: 'none',
    body: SignupBody,
    multipart: true,
    ok: 201,
  },
  {
    method: 'post',
    path: '/auth/login',
    summary: 'Log in with e-mail and password',
    auth: 'none',
    body: LoginBody,
    ok: 200,
    payload: { user: SessionUser },
  },
  { method: 'post', path: '/auth/logout', summary: 'End the session', auth: 'none', ok: 200 },
  {
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user',
    auth: 'user',
    ok: 200,
    payload: { user: SessionUser },
  },
  {
    method: 'get',
    path: '/auth/google/status',
    summary: 'Whether Google sign-in is available on this server',
    auth: 'none',
    ok: 200,
    payload: { enabled: z.boolean() },
  },
  {
    method: 'get',
    path: '/auth/google',
    summary: 'Start Google sign-in (redirects to the provider; 404 when not available)',
    auth: 'none',
    ok: 302,
  },
  {
    method: 'get',
    path: '/auth/google/callback',
    summary: "The provider's redirect back (redirects into the app)",
    auth: 'none',
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    ok: 302,
  },
  {
    method: 'post',
    path: '/auth/google-login',
    summary: 'Log in with a Google-signed ID token',
    auth: 'none',
    body: GoogleLoginBody,
    ok: 200,
    payload: { user: SessionUser },
  },
  {
    method: 'post',
    path: '/auction/createAuction',
    summary: 'Create an auction (optional image)',
    auth: 'user',
    body: CreateAuctionBody,
    multipart: true,
    ok: 201,
    payload: { auction: AuctionView.nullable() },
  },
  {
    method: 'get',
    path: '/auction/getAuctions',
    summary: "The signed-in user's auctions, newest first, a page at a time",
    auth: 'user',
    query: z.object(pageFields('sellerAuctions')),
    ok: 200,
    payload: { auctions: z.array(AuctionView), nextCursor: NextCursor },
  },
  {
    method: 'delete',
    path: '/auction/deleteAuction/{id}',
    summary: 'Cancel an own auction',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
  },
  {
    method: 'get',
    path: '/auction/fetchAllAuctions',
    summary: 'Live auctions, by title and category, newest first, a page at a time',
    auth: 'none',
    query: AuctionFilters.extend(pageFields('auctions')),
    ok: 200,
    payload: { auctions: z.array(AuctionView), nextCursor: NextCursor },
  },
  {
    method: 'get',
    path: '/auction/fetchSpecificAuction',
    summary: "An auction's detail with every standing bid",
    auth: 'none',
    query: AuctionIdQuery,
    ok: 200,
    payload: { auctionDetails: AuctionView },
  },
  {
    method: 'get',
    path: '/auction/featured',
    summary: 'Featured auctions',
    auth: 'none',
    ok: 200,
    payload: { featured: z.array(AuctionView) },
  },
  {
    method: 'patch',
    path: '/auction/editAuction/{id}',
    summary: 'Edit an own auction (optional new image)',
    auth: 'user',
    params: AuctionIdParams,
    body: EditAuctionBody,
    multipart: true,
    ok: 200,
    payload: { auction: AuctionView },
  },
  {
    method: 'post',
    path: '/auction/createCategory',
    summary: 'Create a category',
    auth: 'user',
    body: CreateCategoryBody,
    ok: 201,
    payload: { category: CategoryView.nullable() },
  },
  {
    method: 'get',
    path: '/auction/getAllCategories',
    summary: 'Categories by name, a page at a time',
    auth: 'none',
    query: z.object(pageFields('categories')),
    ok: 200,
    payload: { categories: z.array(CategoryView), nextCursor: NextCursor },
  },
  {
    method: 'get',
    path: '/auction/notifications',
    summary: "The signed-in user's notifications, newest first, a page at a time",
    auth: 'user',
    query: z.object(pageFields('notifications')),
    ok: 200,
    payload: { data: z.array(NotificationView), nextCursor: NextCursor },
  },
  {
    method: 'patch',
    path: '/auction/notifications/mark-read',
    summary: 'Mark every notification read',
    auth: 'user',
    ok: 200,
  },
  {
    method: 'delete',
    path: '/auction/notifications/clear',
    summary: 'Clear every notification',
    auth: 'user',
    ok: 200,
  },
  {
    method: 'post',
    path: '/auction/watch/{id}',
    summary: 'Watch an auction (watchlist; idempotent; a cancelled auction answers 409)',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
    payload: WatchlistState.shape,
  },
  {
    method: 'delete',
    path: '/auction/watch/{id}',
    summary: 'Stop watching an auction (idempotent)',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
    payload: WatchlistState.shape,
  },
  {
    method: 'get',
    path: '/user/watchlist',
    summary: "The signed-in user's watched auctions, most recently watched first, a page at a time",
    auth: 'user',
    query: z.object(pageFields('watchlist')),
    ok: 200,
    payload: { auctions: z.array(AuctionView), nextCursor: NextCursor },
  },
  {
    method: 'get',
    path: '/user/profile',
    summary: 'Profile, statistics and recent activity',
    auth: 'user',
    ok: 200,
    payload: { data: ProfileView },
  },
  {
    method: 'get',
    path: '/user/history',
    summary: 'Auctions created, bid on and won',
    auth: 'user',
    query: HistoryQuery,
    ok: 200,
    payload: { history: z.array(HistoryEntry), nextCursor: NextCursor },
  },
  {
    method: 'get',
    path: '/user/winnings',
    summary: 'Auctions won and their statistics',
    auth: 'user',
    ok: 200,
    payload: { winnings: z.array(WinningItem), statistics: WinningsStatistics },
  },
  {
    method: 'delete',
    path: '/user/delete-account',
    summary: 'Delete the account and its personal data',
    auth: 'user',
    ok: 200,
  },
  {
    method: 'post',
    path: '/bid/placeBid',
    summary: 'Bid on an auction',
    auth: 'user',
    body: PlaceBidBody,
    ok: 201,
    payload: {
      newBid: BidView,
      currentBid: z.number(),
      revision: z.number().int().describe("The bid's own stream revision"),
      leading: z.boolean().describe("Whether it leads once other bidders' maxima answered it"),
      maxBid: z.number().describe("The bidder's own maximum (the amount when none was given)"),
      auctionEndTime: z
        .string()
        .optional()
        .describe("The auction's new end, when the bid landed in its soft-close window"),
    },
  },
  {
    method: 'put',
    path: '/bid/editBid/{bidId}',
    summary: 'Raise an own bid, its secret maximum, or both',
    auth: 'user',
    params: BidParams,
    body: EditBidBody,
    ok: 200,
    payload: {
      updatedBid: BidView,
      currentBid: z.number(),
      leading: z.boolean(),
      maxBid: z.number(),
    },
  },
  {
    method: 'post',
    path: '/bid/buyNow',
    summary: 'Buy at the Buy It Now price, ending the auction at once',
    auth: 'user',
    body: BuyNowBody,
    ok: 201,
    payload: { auctionId: z.string(), finalPrice: z.number(), status: z.string() },
  },
  {
    method: 'delete',
    path: '/bid/deleteBid/{bidId}',
    summary: 'Retract an own bid',
    auth: 'user',
    params: BidParams,
    ok: 200,
    payload: { currentBid: z.number() },
  },
  {
    method: 'get',
    path: '/audit/auctions/{id}/events',
    summary: "An auction's stored events (Auditor, Admin or its seller)",
    auth: 'user',
    params: AuditIdParams,
    ok: 200,
    payload: {
      auctionId: z.string(),
      lastRevision: z.number().int().nullable(),
      events: z.array(AuditEvent),
    },
  },
  {
    method: 'get',
    path: '/audit/auctions/{id}/state',
    summary: 'The auction folded through a revision or a time',
    auth: 'user',
    params: AuditIdParams,
    query: AuditPoint,
    ok: 200,
    payload: { state: AuditState },
  },
  {
    method: 'get',
    path: '/audit/auctions/{id}/verify',
    summary: "Check the auction's hash chain and read models",
    auth: 'user',
    params: AuditIdParams,
    ok: 200,
    payload: { verification: AuditVerification },
  },
  {
    method: 'get',
    path: '/audit/auctions/{id}/export',
    summary: "The auction's events as NDJSON, one per line",
    auth: 'user',
    params: AuditIdParams,
    ok: 200,
    raw: { contentType: 'application/x-ndjson', schema: AuditEvent },
  },
];

type JsonSchema = Record<string, unknown>;
type Params = NonNullable<Parameters<typeof z.toJSONSchema>[1]>;

const isEmpty = (schema: JsonSchema) =>
  Object.keys(schema).every((key) => key === '$schema' || key === 'default');

const looksLikeId = (schema: z.core.$ZodType) =>
  z.safeParse(schema, 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d').success &&
  !z.safeParse(schema, 'not an id!').success &&
  !z.safeParse(schema, 42).success;

const idSchema = (): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(Id);
  return rest;
};

/**
 * Input schemas: a `z.custom` check (used so that each problem gets the spec's message) is opaque
 * to JSON Schema, so a pipe out of one is described by what follows it, and a bare one that
 * accepts exactly ids by `Id`.
 */
const inputParams: Params = {
  io: 'input',
  target: 'draft-2020-12',
  unrepresentable: 'any',
  override: (ctx) => {
    if (!isEmpty(ctx.jsonSchema)) return;
    const def = ctx.zodSchema._zod.def;
    if (def.type === 'pipe') {
      const { $schema: _, ...out } = z.toJSONSchema(def.out, inputParams);
      Object.assign(ctx.jsonSchema, out);
    }
    if (isEmpty(ctx.jsonSchema) && looksLikeId(ctx.zodSchema))
      Object.assign(ctx.jsonSchema, idSchema());
  },
};

const inputSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, inputParams) as JsonSchema;
  return rest;
};

const parametersOf = (schema: z.ZodType | undefined, place: 'path' | 'query') => {
  if (!schema) return [];
  const json = inputSchema(schema);
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Record<string, JsonSchema> | undefined) ?? {}).map(
    ([name, property]) => ({
      name,
      in: place,
      required: place === 'path' || required.has(name),
      schema: property,
    }),
  );
};

const IMAGE = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description: `JPEG, PNG, WebP or GIF (checked by content), at most ${MAX_IMAGE_BYTES / 2 ** 20} MB`,
};

const requestBodyOf = (op: Operation) => {
  if (!op.body) return undefined;
  const json = inputSchema(op.body);
  const content: Record<string, unknown> = { 'application/json': { schema: json } };
  if (op.multipart) {
    const properties = { ...((json.properties as JsonSchema | undefined) ?? {}), image: IMAGE };
    content['multipart/form-data'] = {
      schema: { ...json, properties },
      encoding: { image: { contentType: 'image/jpeg, image/png, image/webp, image/gif' } },
    };
  }
  return { required: true, content };
};

/** Answers an operation may give because of its body or its limits, before the route runs. */
const guardResponses = (op: Operation, failure: JsonSchema): Record<string, unknown> => {
  const content = { 'application/json': { schema: failure } };
  const answers: Record<string, unknown> = {};
  if (op.body)
    answers['408'] = {
      description: `${errorCatalog.REQUEST_TIMEOUT.message} (the body did not arrive within BODY_TIMEOUT_MS; the connection is closed)`,
      content,
    };
  // Limited: uploads and new auctions (per user and address), sign-ups, logins, bids.
  if (op.multipart || op.path === '/auth/login' || op.path.startsWith('/bid/'))
    answers['429'] = {
      description:
        'Rate limited, nothing was changed: the message says which limit (new auctions, images or image data per user or address, sign-ups, logins, bids); `Retry-After` says when to try again',
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
      content,
    };
  if (op.multipart)
    answers['503'] = {
      description: `${errorCatalog.UPLOADS_BUSY.message} (UPLOADS_IN_PROGRESS uploads are being received; answered before the body is read)`,
      content,
    };
  return answers;
};

const outputSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
};

const operationId = (op: Operation) =>
  `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const buildDocument = () => {
  const registry = z.registry<{ id: string }>();
  const views: Record<string, z.ZodType> = {
    AuctionView,
    BidView,
    CategoryView,
    NotificationView,
    HistoryEntry,
    WinningItem,
    WinningsStatistics,
    ProfileStatistics,
    RecentActivity,
    SessionUser,
    AuditEvent,
    AuditState,
    AuditVerification,
  };
  for (const [id, schema] of Object.entries(views)) registry.add(schema, { id });
  const Failure = z.object({ success: z.literal(false), message: z.string() });
  registry.add(Failure, { id: 'Failure' });
  const envelopes = new Map<Operation, string>();
  for (const op of operations) {
    if (op.raw || op.ok === 302) continue;
    const id = `${operationId(op).replace(/^./, (c) => c.toUpperCase())}Response`;
    registry.add(
      z.object({ success: z.literal(true), message: z.string(), ...(op.payload ?? {}) }),
      { id },
    );
    envelopes.set(op, id);
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const envelope = envelopes.get(op);
    const success =
      op.ok === 302
        ? { description: 'Redirect', headers: { Location: { schema: { type: 'string' } } } }
        : {
            description: 'Success',
            content: op.raw
              ? {
                  [op.raw.contentType]: {
                    schema: op.raw.schema ? outputSchema(op.raw.schema) : {},
                  },
                }
              : { 'application/json': { schema: ref(envelope as string) } },
          };
    const failure = {
      description:
        'Refused: 400 invalid input (the message names the field), 401 not logged in, 403 not allowed, 404 not found, 409 conflicts with the current state, 413 too large, 415 not an image, 429 rate limited',
      content: { 'application/json': { schema: ref('Failure') } },
    };
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = {
      operationId: operationId(op),
      summary: op.summary,
      tags: [op.path.split('/')[1]],
      ...(op.auth === 'user' ? { security: [{ session: [] }] } : { security: [] }),
      parameters: [...parametersOf(op.params, 'path'), ...parametersOf(op.query, 'query')],
      ...(op.body ? { requestBody: requestBodyOf(op) } : {}),
      responses: {
        [String(op.ok)]: success,
        ...guardResponses(op, ref('Failure')),
        '4XX': failure,
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Auction marketplace API',
      version: '1.0.0',
      description:
        'Every response is `{success, message, ...payload}`; money is in dollars. A mutating request from a browser must carry an `Origin` of the site (CSRF).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: API_BASE }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
};

let cached: ReturnType<typeof buildDocument> | undefined;

/** The OpenAPI 3.1 document of `/api/v1`, built once from the zod schemas the routes parse with. */
export const openApiDocument = () => (cached ??= buildDocument());

export const openApiRoute: RequestHandler = (_req, res) => {
  res.json(openApiDocument());
};
