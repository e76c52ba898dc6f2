import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import {
  type AuctionCommand,
  SYSTEM_ACTOR,
  auctionStream,
  fixedCategories,
  centsToDollars,
  dollarsToCents,
  minimumRaise,
} from '@auction/contracts';
import { Engine, type EventStore, SqliteEventStore } from '@auction/engine';
import { type NewEvent, recordCommands } from '@auction/engine/testing';
import { Agent, request } from 'node:http';
import { procCpuSeconds, startChildServer } from '../src/testing/child-server';

/** What a benchmark's request got back. */
export interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly setCookie: readonly string[];
}

/** A keep-alive HTTP client for the benchmarks: one agent, at most one socket per concurrent caller. */
export class Http {
  readonly agent: Agent;
  constructor(
    readonly base: URL,
    sockets: number,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      noDelay: true,
      maxSockets: sockets,
      maxFreeSockets: sockets,
    });
  }

  send(
    method: string,
    path: string,
    cookie?: string,
    json?: unknown,
    timeoutMs?: number,
  ): Promise<Reply> {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cookie) headers.cookie = cookie;
    if (method !== 'GET') headers.origin = this.base.origin;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((done, fail) => {
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path: `/api/v1${path}`,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', fail);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: Record<string, unknown>;
            try {
              body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
            } catch {
              body = { text };
            }
            done({ status: res.statusCode ?? 0, body, setCookie: res.headers['set-cookie'] ?? [] });
          });
        },
      );
      req.on('error', fail);
      if (timeoutMs !== undefined) {
        req.setTimeout(timeoutMs, () =>
          req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
        );
      }
      req.end(payload);
    });
  }
}

/**
 * The ids of an auction's standing bids as its detail shows them: the first page, then the pages
 * of `GET /auction/bids` after its `bidsNextCursor`; undefined when a request fails.
 */
export const shownBidIds = async (
  http: Http,
  auctionId: string,
  timeoutMs?: number,
): Promise<string[] | undefined> => {
  const detail = await http
    .send(
      'GET',
      `/auction/fetchSpecificAuction?auctionId=${auctionId}`,
      undefined,
      undefined,
      timeoutMs,
    )
    .catch(() => undefined);
  const auction = detail?.body.auctionDetails as
    { bids: { _id: string }[]; bidsNextCursor: string | null } | undefined;
  if (!auction) return undefined;
  const ids = auction.bids.map((bid) => bid._id);
  for (let cursor = auction.bidsNextCursor; cursor !== null;) {
    const path = `/auction/bids?auctionId=${auctionId}&limit=100&cursor=${encodeURIComponent(cursor)}`;
    const page = await http
      .send('GET', path, undefined, undefined, timeoutMs)
      .catch(() => undefined);
    const body = page?.body as { bids?: { _id: string }[]; nextCursor?: string | null } | undefined;
    if (!body?.bids) return undefined;
    ids.push(...body.bids.map((bid) => bid._id));
    cursor = body.nextCursor ?? null;
  }
  return ids;
};

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** The smallest bid, in dollars, that beats `dollars` by the published increment table. */
export const raiseDollars = (dollars: number): number =>
  centsToDollars(minimumRaise(dollarsToCents(dollars), 'one-dollar'));

/** Runs `task` on `items` with at most `limit` at once. */
export const pool = async <T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
) => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i] as T);
      }
    }),
  );
  return results;
};

const sessionCookie = (reply: Reply): string => {
  const cookie = reply.setCookie.find((c) => c.startsWith('auction.sid='));
  if (!cookie) throw new Error('login set no session cookie');
  return cookie.split(';')[0] as string;
};

let userCounter = 0;
/** Signs a new user up and logs them in; their id and `auction.sid=...` session cookie. */
export const signUpAndLogIn = async (
  http: Http,
): Promise<{ readonly id: string; readonly cookie: string }> => {
  const n = ++userCounter;
  const email = `bidder${n}-${Date.now()}@example.com`;
  const password = 'Secret123';
  const signup = await http.send('POST', '/auth/signup', undefined, {
    firstName: `First${n}`,
    lastName: `Last${n}`,
    email,
    password,
    confirmPassword: password,
  });
  if (signup.status !== 201)
    throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const login = await http.send('POST', '/auth/login', undefined, { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: (login.body.user as { _id: string })._id, cookie: sessionCookie(login) };
};

/**
 * Accepted bids (bid id → auction id) missing from the SQLite event log in `dataDir`, read after
 * the servers stopped, and bids stored more than once.
 */
export const lostAndDuplicated = async (dataDir: string, accepted: ReadonlyMap<string, string>) => {
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.sqlite') });
  try {
    const stored = new Map<string, number>();
    for (const auctionId of new Set(accepted.values())) {
      for (const event of await store.readStream(auctionStream(auctionId))) {
        if (event.type !== 'BidPlaced') continue;
        const bidId = (event.data as { bidId: string }).bidId;
        stored.set(bidId, (stored.get(bidId) ?? 0) + 1);
      }
    }
    let lost = 0;
    for (const bidId of accepted.keys()) if (!stored.has(bidId)) lost++;
    return { lost, duplicates: [...stored.values()].filter((n) => n > 1).length };
  } finally {
    await store.close();
  }
};

/** A port free on 127.0.0.1 now, for a server the benchmark starts on a port known in advance. */
export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });

/** Resolves once `port` on 127.0.0.1 accepts a TCP connection (tried every `everyMs`). */
export const portAccepts = async (port: number, everyMs = 5): Promise<void> => {
  for (;;) {
    const accepted = await new Promise<boolean>((done) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (accepted) return;
    await new Promise((wait) => setTimeout(wait, everyMs));
  }
};

const DAY_MS = 86_400_000;

/**
 * Writes an event log of at least `targetEvents` events to the SQLite event store at `filename`,
 * as the product writes it: the eight fixed categories (through the engine), then auctions made
 * by the real decider and sealed into the hash chain (`recordCommands`), each created ten days
 * ago with `bidsPerAuction` rising bids from rotating bidders; every third one ended yesterday and
 * is closed, the others run 30 more days (none is left overdue). Each auction's events are appended
 * whole, `auctionsPerCommit` auctions per transaction (the store's group commit). Returns the
 * number of events in the log, and the last live auction with the least amount it accepts next.
 */
export const writeAuctionLog = async (
  filename: string,
  targetEvents: number,
  options: { readonly bidsPerAuction?: number; readonly auctionsPerCommit?: number } = {},
): Promise<{
  readonly events: number;
  readonly liveAuction: { readonly id: string; readonly nextBidCents: number };
}> => {
  const bidsPerAuction = options.bidsPerAuction ?? 200;
  const auctionsPerCommit = options.auctionsPerCommit ?? 50;
  const store = new SqliteEventStore({ filename });
  try {
    const now = Date.now();
    await new Engine({ store }).seedFixedCategories(new Date(now - 11 * DAY_MS).toISOString());
    let events = (await store.headPosition()) ?? 0;
    const sealed: NewEvent[] = [];
    // recordCommands appends command by command; the auction's events are collected here instead
    // and appended in one go (same events, same chain).
    const collect: Pick<EventStore, 'append'> = {
      append: (_stream, batch) => {
        sealed.push(...batch);
        return Promise.resolve({ nextRevision: sealed.length - 1, position: 0 });
      },
    };
    const metadata = (actorId: string, at: number) => ({
      commandId: randomUUID(),
      correlationId: randomUUID(),
      actorId,
      at: new Date(at).toISOString(),
    });
    let commits: Promise<unknown>[] = [];
    let liveAuction = { id: '', nextBidCents: 0 };
    for (let a = 0; events < targetEvents; a++) {
      const auctionId = randomUUID();
      const created = now - 10 * DAY_MS;
      const closed = a % 3 === 0;
      const endsAt = closed ? now - DAY_MS : now + 30 * DAY_MS;
      const commands: AuctionCommand[] = [
        {
          type: 'CreateAuction',
          data: {
            auctionId,
            title: `Lot ${a}`,
            description: 'Generated for the start-up benchmark',
            categoryId: fixedCategories[a % fixedCategories.length]?.categoryId ?? 'antiques',
            startingPrice: 10_000,
            endsAt: new Date(endsAt).toISOString(),
            image: null,
          },
          metadata: metadata(`seller-${a % 500}`, created),
        },
      ];
      let amount = 10_000;
      for (let b = 0; b < bidsPerAuction; b++) {
        commands.push({
          type: 'PlaceBid',
          data: { auctionId, bidId: randomUUID(), amount },
          metadata: metadata(`bidder-${(a * 7 + b) % 3000}`, created + (b + 1) * 1000),
        });
        amount = minimumRaise(amount, 'one-dollar') + (b % 7) * 50;
      }
      if (!closed) liveAuction = { id: auctionId, nextBidCents: amount };
      if (closed) {
        commands.push({
          type: 'CloseAuction',
          data: { auctionId },
          metadata: metadata(SYSTEM_ACTOR, endsAt + 1000),
        });
      }
      sealed.length = 0;
      const decided = await recordCommands(collect, auctionId, commands);
      if (decided.length !== commands.length)
        throw new Error(`${commands.length - decided.length} generated commands were refused`);
      commits.push(store.append(auctionStream(auctionId), [...sealed], 'no_stream'));
      events += sealed.length;
      if (commits.length >= auctionsPerCommit) {
        await Promise.all(commits);
        commits = [];
      }
    }
    await Promise.all(commits);
    return { events: (await store.headPosition()) ?? 0, liveAuction };
  } finally {
    await store.close();
  }
};

/** Lists a lot ending in a day through the API, as `cookie`'s user; its id. */
export const createLot = async (http: Http, cookie: string, title: string): Promise<string> => {
  const res = await http.send('POST', '/auction/createAuction', cookie, {
    title,
    description: 'Benchmark lot',
    category: 'antiques',
    startingPrice: 100,
    auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
  });
  if (res.status !== 201)
    throw new Error(`createAuction: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.auction as { _id: string })._id;
};

/**
 * The server (`api/src/main.ts`) as a child process on a fresh DATA_DIR, with the rate limits out
 * of the benchmark's way; with `profile`, it writes its CPU profile into that directory.
 */
export const startBenchServer = async (prefix: string, profile: string | undefined) => {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const limit = '1000000';
  const server = await startChildServer(
    {
      DATA_DIR: dataDir,
      RATE_LIMIT_LOGIN: limit,
      RATE_LIMIT_SIGNUP: limit,
      RATE_LIMIT_BIDS: limit,
      RATE_LIMIT_AUCTIONS: limit,
      RATE_LIMIT_AUCTIONS_PER_ADDRESS: limit,
      // Thousands of sockets from one address.
      WATCH_LIMIT_PER_ADDRESS: limit,
      WATCH_RATE_PER_ADDRESS: limit,
    },
    profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {},
  );
  return { dataDir, server };
};

/**
 * A bare baseline (`bare-express.ts`, `bare-socketio.ts`: the raw limit a benchmark is judged
 * against) as a child process, once it prints `listening on <url>`; its URL and a way to stop it.
 */
export const startBareServer = (
  script: string,
  env: Record<string, string> = {},
): Promise<{ url: string; stop: () => Promise<void>; cpuSeconds: () => number | undefined }> =>
  new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, script)],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<void>((ended) => child.once('exit', () => ended()));
    let output = '';
    child.once('error', fail);
    void exited.then(() => fail(new Error(`${script} exited before listening: ${output}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url)
        done({
          url,
          cpuSeconds: () => (child.pid === undefined ? undefined : procCpuSeconds(child.pid)),
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
    });
  });
