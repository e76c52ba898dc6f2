import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IncrementRule } from '@auction/contracts';
import { z } from 'zod';
import { anyCrossSite, isLoopbackHost, parseOrigin } from './cross-origin';

const flag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1');
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const wholeNumber = (name: string, min: number, max: number) => {
  const error = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const perWindow = (name: string, fallback: number) =>
  wholeNumber(name, 1, 1_000_000).default(fallback);

/** Every setting the server and its command-line tools read, parsed once from the environment. */
export const Config = z
  .object({
    /** HTTP port (0 picks a free one). */
    PORT: wholeNumber('PORT', 0, 65_535).default(3000),
    /** Interface to listen on. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Where the embedded stores, sessions and uploaded images live. */
    DATA_DIR: z
      .string()
      .min(1, 'DATA_DIR must name a directory')
      .default('./data')
      .transform((dir) => resolve(dir)),
    /** The built web app to serve beside the API (`npm run build` writes it); default web/dist. */
    WEB_DIR: z
      .string()
      .min(1, 'WEB_DIR must name a directory')
      .default(fileURLToPath(new URL('../../../web/dist', import.meta.url)))
      .transform((dir) => resolve(dir)),
    /** The origin browsers use to reach the app (CSRF checks, OpenID redirect); default http://localhost:PORT. */
    PUBLIC_ORIGIN: z
      .url({
        protocol: /^https?$/,
        error: 'PUBLIC_ORIGIN must be an http(s) URL such as https://auctions.example.com',
      })
      .optional(),
    /**
     * Origins of web clients served elsewhere than the API (comma-separated, e.g.
     * `https://app.example.com,http://localhost:5173`): they get credentialed CORS, pass the CSRF
     * check and the socket handshake, and see absolute image URLs. Unset: same origin only.
     */
    CORS_ORIGINS: optionalText.pipe(
      z
        .string()
        .transform((list, ctx) => {
          const origins: string[] = [];
          for (const entry of list.split(',')) {
            const parsed = parseOrigin(entry.trim());
            if ('origin' in parsed) {
              if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
              continue;
            }
            ctx.addIssue({
              code: 'custom',
              message: `CORS_ORIGINS must list http(s) origins such as https://app.example.com, separated by commas: ${parsed.error}`,
            });
            return z.NEVER;
          }
          return origins;
        })
        .optional(),
    ),
    /** Signs session cookies; when unset, a random secret is kept in DATA_DIR. */
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    /**
     * How long a node serves a session from memory before it reads it from the store again, in
     * milliseconds; 0: read on every request. Logouts and account deletions reach every node's
     * memory at once (through Kafka in a cluster): this bounds only what a node that missed one
     * keeps serving.
     */
    SESSION_CACHE_MS: wholeNumber('SESSION_CACHE_MS', 0, 300_000).default(10_000),
    /** Trust X-Forwarded-* from one proxy in front (for client IPs and Secure cookies). */
    TRUST_PROXY: flag('TRUST_PROXY').default(false),
    /**
     * The increment rule of a new auction whose seller names none: `one-dollar` (each bid at least
     * $1 over the current price, as the spec has it) or `table` (the published increment table).
     */
    DEFAULT_INCREMENTS: z
      .enum(IncrementRule.options, { error: 'DEFAULT_INCREMENTS must be one-dollar or table' })
      .default('one-dollar'),
    /** Whether a new auction whose seller does not say has soft close (a late bid moves its end). */
    DEFAULT_SOFT_CLOSE: flag('DEFAULT_SOFT_CLOSE').default(false),
    /** Google (or any OpenID Connect) sign-in: enabled when client id and secret are both set. */
    GOOGLE_ISSUER: z
      .url({ error: 'GOOGLE_ISSUER must be the URL of an OpenID Connect issuer' })
      .default('https://accounts.google.com'),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    /** Login attempts per client address and e-mail per 15 minutes. */
    RATE_LIMIT_LOGIN: perWindow('RATE_LIMIT_LOGIN', 10),
    /** Signups per client address per hour. */
    RATE_LIMIT_SIGNUP: perWindow('RATE_LIMIT_SIGNUP', 20),
    /** Bid commands (place, edit, delete) per user per minute. */
    RATE_LIMIT_BIDS: perWindow('RATE_LIMIT_BIDS', 600),
    /** Watchlist changes (watch, unwatch) per user per minute: each one is an event in the log. */
    RATE_LIMIT_WATCHES: perWindow('RATE_LIMIT_WATCHES', 120),
    /** Price history pages (`GET /auction/history`, anyone) per client address per minute. */
    RATE_LIMIT_HISTORY: perWindow('RATE_LIMIT_HISTORY', 300),
    /** New auctions (`createAuction` requests) per user per hour. */
    RATE_LIMIT_AUCTIONS: perWindow('RATE_LIMIT_AUCTIONS', 100),
    /** New auctions per client address per hour, all its users together. */
    RATE_LIMIT_AUCTIONS_PER_ADDRESS: perWindow('RATE_LIMIT_AUCTIONS_PER_ADDRESS', 500),
    /** Images uploaded (auctions, edits) per user per hour. */
    RATE_LIMIT_UPLOADS: perWindow('RATE_LIMIT_UPLOADS', 200),
    /** Images uploaded per client address per hour (sign-up photos included). */
    RATE_LIMIT_UPLOADS_PER_ADDRESS: perWindow('RATE_LIMIT_UPLOADS_PER_ADDRESS', 1000),
    /** Megabytes (MiB, each started one counted) of images uploaded per user per hour. */
    RATE_LIMIT_UPLOAD_MB: perWindow('RATE_LIMIT_UPLOAD_MB', 1000),
    /** Megabytes (MiB) of images uploaded per client address per hour. */
    RATE_LIMIT_UPLOAD_MB_PER_ADDRESS: perWindow('RATE_LIMIT_UPLOAD_MB_PER_ADDRESS', 5000),
    /**
     * How long a request's body may take to arrive, in milliseconds, counted from its headers; a
     * slower one is answered 408 and its connection closed (uploads and JSON bodies alike).
     */
    BODY_TIMEOUT_MS: wholeNumber('BODY_TIMEOUT_MS', 100, 600_000).default(30_000),
    /**
     * How long a read waits for a read model that has not yet applied the client's last write
     * (its consistency token) before it is answered from what the read model holds, marked with
     * `Read-Models-Behind`. Reads without a token, or past it, never wait.
     */
    READ_WAIT_MS: wholeNumber('READ_WAIT_MS', 0, 60_000).default(2000),
    /**
     * Uploads (multipart bodies) this process receives at once; one more is answered 503. Each
     * streams to the image store as it arrives (a few buffers in memory), so this bounds the open
     * connections and writes.
     */
    UPLOADS_IN_PROGRESS: wholeNumber('UPLOADS_IN_PROGRESS', 1, 10_000).default(10),
    /** Auctions one socket (a browser tab) may watch at once. */
    WATCH_LIMIT_PER_SOCKET: perWindow('WATCH_LIMIT_PER_SOCKET', 50),
    /** `auction:watch` requests per socket per 10 seconds. */
    WATCH_RATE_PER_SOCKET: perWindow('WATCH_RATE_PER_SOCKET', 20),
    /** Auctions all the sockets of one client address may watch at once, together. */
    WATCH_LIMIT_PER_ADDRESS: perWindow('WATCH_LIMIT_PER_ADDRESS', 500),
    /** `auction:watch` requests per client address (all its sockets) per 10 seconds. */
    WATCH_RATE_PER_ADDRESS: perWindow('WATCH_RATE_PER_ADDRESS', 100),
    /** Puts the event log on EventStoreDB, e.g. `esdb://localhost:2113?tls=false`; unset: SQLite in DATA_DIR. */
    EVENTSTORE_CONNECTION_STRING: optionalText.pipe(
      z
        .string()
        .regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\/\S+$/, {
          error:
            'EVENTSTORE_CONNECTION_STRING must be a URL such as esdb://localhost:2113?tls=false',
        })
        .optional(),
    ),
    /**
     * Puts read models, accounts, sessions, rate-limit counters and images (GridFS) on MongoDB, e.g.
     * `mongodb://localhost:27017`; unset: SQLite and files in DATA_DIR.
     */
    MONGODB_URL: optionalText.pipe(
      z
        .string()
        .regex(/^mongodb(\+srv)?:\/\/\S+$/, {
          error: 'MONGODB_URL must be a URL such as mongodb://localhost:27017',
        })
        .optional(),
    ),
    /** The MongoDB database the product keeps its collections in. */
    MONGODB_DB: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, {
        error: 'MONGODB_DB must be 1 to 63 letters, digits, - or _',
      })
      .default('auction'),
    /**
     * How long a stop (SIGTERM, SIGINT) may drain before what is left is cut short, in
     * milliseconds; commands being appended are waited for even past it (see `server/server.ts`).
     */
    SHUTDOWN_TIMEOUT_MS: wholeNumber('SHUTDOWN_TIMEOUT_MS', 100, 600_000).default(10_000),
    /**
     * At most this many statements in one write command when the read models commit a batch to
     * MongoDB without a transaction. Unset: bulk writes, as few commands as the server takes.
     * FerretDB on its SQLite backend needs 8 (more exhaust its SQLite connections).
     */
    MONGODB_STATEMENTS_PER_COMMAND: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      wholeNumber('MONGODB_STATEMENTS_PER_COMMAND', 1, 100_000).optional(),
    ),
    /**
     * Where the read models' projections run: `worker`, on a thread of their own with their own
     * connections to the stores (the request thread never applies or commits a batch), or
     * `inline`, on the request thread (its batches then give way to requests now and then).
     */
    PROJECTIONS_THREAD: z
      .enum(['worker', 'inline'], { error: 'PROJECTIONS_THREAD must be worker or inline' })
      .default('worker'),
    /** How long start-up waits for a configured server before it gives up, in milliseconds. */
    STORE_CONNECT_TIMEOUT_MS: wholeNumber('STORE_CONNECT_TIMEOUT_MS', 100, 120_000).default(5000),
    /**
     * Runs this process as one node of a cluster: auction commands go through Kafka to the node that
     * owns the auction, e.g. `kafka1:9092,kafka2:9092`. Needs MONGODB_URL (shared read models,
     * accounts, sessions, rate limits, images) and an event store every node reaches.
     */
    KAFKA_BROKERS: optionalText.pipe(
      z
        .string()
        .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, {
          error: 'KAFKA_BROKERS must list host:port pairs separated by commas, e.g. localhost:9092',
        })
        .transform((list) => list.split(','))
        .optional(),
    ),
    /** Partitions of the commands topic: fixed for the topic's life (a new count remaps auctions). */
    KAFKA_PARTITIONS: wholeNumber('KAFKA_PARTITIONS', 1, 10_000).default(12),
    /** Put before the cluster's topic and group names, with a `.` unless it ends in `.`, `_` or `-`. */
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._-]{0,100}$/, {
        error: 'KAFKA_TOPIC_PREFIX may hold only letters, digits, ".", "_" and "-"',
      })
      .default(''),
    /** How long a request waits for its command's outcome from the owning node, in milliseconds. */
    KAFKA_REPLY_TIMEOUT_MS: wholeNumber('KAFKA_REPLY_TIMEOUT_MS', 100, 120_000).default(15_000),
    /** A node silent for this long is taken for dead and its auctions move, in milliseconds. */
    KAFKA_SESSION_TIMEOUT_MS: wholeNumber('KAFKA_SESSION_TIMEOUT_MS', 1000, 300_000).default(6000),
    /** This node's name in the cluster, unique among the nodes; default: host name and process id. */
    NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, {
        error: 'NODE_ID may hold only letters, digits, ".", "_" and "-"',
      })
      .default(() => `${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${process.pid}`),
  })
  .refine(
    (config) => {
      if (!config.CORS_ORIGINS) return true;
      const origin = config.PUBLIC_ORIGIN ?? 'http://localhost';
      if (!anyCrossSite(origin, config.CORS_ORIGINS)) return true;
      const url = new URL(origin);
      return url.protocol === 'https:' || isLoopbackHost(url.hostname);
    },
    {
      path: ['CORS_ORIGINS'],
      error:
        'CORS_ORIGINS names another site than PUBLIC_ORIGIN: its session cookies must be SameSite=None; Secure, which needs PUBLIC_ORIGIN on https (or on localhost, 127.0.0.1 or [::1])',
    },
  )
  .refine((config) => !config.KAFKA_BROKERS || config.MONGODB_URL, {
    path: ['KAFKA_BROKERS'],
    error:
      'KAFKA_BROKERS needs MONGODB_URL: the nodes of a cluster share read models, accounts, sessions, rate limits and images there',
  });
export type Config = z.infer<typeof Config>;

/** Parses the environment; throws one error that lists every bad setting. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = Config.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
};

/** The origin of the server as browsers see it. */
export const publicOrigin = (config: Config, port: number): string =>
  (config.PUBLIC_ORIGIN ?? `http://localhost:${port}`).replace(/\/$/, '');
