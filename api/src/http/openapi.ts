import {
  API_BASE,
  AuctionView,
  AuditEvent,
  AuditState,
  AuditVerification,
  BidView,
  CategoryView,
  HistoryEntry,
  Id,
  NotificationView,
  type Operation,
  ProfileStatistics,
  RecentActivity,
  SessionUser,
  WinningItem,
  WinningsStatistics,
  errorCatalog,
  operations,
} from '@auction/contracts';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { MAX_IMAGE_BYTES } from '../stores/images/image-store';
import { SESSION_COOKIE } from './middleware/session';

/*
 * The OpenAPI document of `/api/v1`, generated from the contracts' route table (`operations`):
 * the routes, their schemas and their success payloads are written there once, and the routers
 * register their handlers against the same entries. What is the API's own is added here: the
 * session cookie, the image part of multipart bodies, the answers of the body and rate guards.
 */

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
  // Limited: uploads and new auctions (per user and address), sign-ups, logins, bids, watch changes.
  if (
    op.multipart ||
    op.path === '/auth/login' ||
    op.path.startsWith('/bid/') ||
    op.path.startsWith('/auction/watch/')
  )
    answers['429'] = {
      description:
        'Rate limited, nothing was changed: the message says which limit (new auctions, images or image data per user or address, sign-ups, logins, bids, watchlist changes); `Retry-After` says when to try again',
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

/** The views and each operation's success envelope, as named JSON schemas; each envelope's name. */
const componentSchemas = () => {
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
  return { schemas, envelopes };
};

const FAILURE = {
  description:
    'Refused: 400 invalid input (the message names the field), 401 not logged in, 403 not allowed, 404 not found, 409 conflicts with the current state, 413 too large, 415 not an image, 429 rate limited',
  content: { 'application/json': { schema: ref('Failure') } },
};

/** One operation's entry under `paths`. */
const pathItem = (op: Operation, envelope: string | undefined) => {
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
  return {
    operationId: operationId(op),
    summary: op.summary,
    tags: [op.path.split('/')[1]],
    ...(op.auth === 'user' ? { security: [{ session: [] }] } : { security: [] }),
    parameters: [...parametersOf(op.params, 'path'), ...parametersOf(op.query, 'query')],
    ...(op.body ? { requestBody: requestBodyOf(op) } : {}),
    responses: {
      [String(op.ok)]: success,
      ...guardResponses(op, ref('Failure')),
      '4XX': FAILURE,
    },
  };
};

const buildDocument = () => {
  const { schemas, envelopes } = componentSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = pathItem(op, envelopes.get(op));
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

export const openApiRoute = (_req: Request, res: Response): void => {
  res.json(openApiDocument());
};
