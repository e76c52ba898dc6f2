import { join } from 'node:path';
import { auctionStream } from '@auction/contracts';
import { SqliteEventStore } from '@auction/engine';
import { Agent, request } from 'node:http';

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

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

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
