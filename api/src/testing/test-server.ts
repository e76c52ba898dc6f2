import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../config/config';
import { type RunningServer, type StartOptions, startServer } from '../server/server';
import { TOKEN_HEADER } from '../http/middleware/read-your-writes';
import { dropTestStores, testStoreEnv } from './test-stores';

export interface TestResponse {
  readonly status: number;
  // Response bodies are whatever the server sent; tests assert on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly headers: Headers;
}

type Body = { json?: unknown; form?: FormData; raw?: string; contentType?: string };

/** The highest consistency token any client of one server was handed (its writes so far). */
export class WrittenPositions {
  highest = 0;
}

/**
 * A browser-like client: keeps cookies, sends `Origin` on mutating requests. Clients of one test
 * server know of each other's writes: each sends the highest consistency token any of them was
 * handed, so a test reads the state after its steps however far the read models lag (MongoDB),
 * as one narrative. `stranger()` makes a client send only its own token, as a real browser does.
 */
export class TestClient {
  private token: (() => number) | undefined;

  constructor(
    readonly base: string,
    private readonly origin: string | null = base,
    private readonly cookies = new Map<string, string>(),
    private readonly written = new WrittenPositions(),
  ) {
    this.token = () => written.highest;
  }

  /** From now on sends only the token it was handed itself (its cookie), as a real browser. */
  stranger(): this {
    this.token = undefined;
    return this;
  }

  /** The same browser (the cookies are shared) talking to another node of a cluster. */
  at(base: string): TestClient {
    const there = new TestClient(base, base, this.cookies, this.written);
    if (!this.token) there.stranger();
    return there;
  }

  async request(
    method: string,
    path: string,
    body: Body = {},
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    const h = new Headers(headers);
    const sent = this.token?.();
    if (sent && !h.has(TOKEN_HEADER)) h.set(TOKEN_HEADER, String(sent));
    if (this.cookies.size > 0)
      h.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (this.origin && method !== 'GET' && !h.has('origin')) h.set('origin', this.origin);
    let payload: string | FormData | undefined;
    if (body.json !== undefined) {
      h.set('content-type', 'application/json');
      payload = JSON.stringify(body.json);
    } else if (body.raw !== undefined) {
      h.set('content-type', body.contentType ?? 'application/json');
      payload = body.raw;
    } else if (body.form) {
      payload = body.form;
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: h,
      body: payload,
      redirect: 'manual',
    });
    const handed = Number(res.headers.get(TOKEN_HEADER) ?? 0);
    if (handed > this.written.highest) this.written.highest = handed;
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, {}, headers);
  }
  post(path: string, body?: Body, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body?: Body, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers);
  }
  patch(path: string, body?: Body, headers?: Record<string, string>) {
    return this.request('PATCH', path, body, headers);
  }
  delete(path: string, body?: Body, headers?: Record<string, string>) {
    return this.request('DELETE', path, body, headers);
  }
  hasSession(): boolean {
    return this.cookies.has('auction.sid');
  }
}

export interface TestServer extends RunningServer {
  readonly dataDir: string;
  /** The store settings it runs with, for a command-line tool pointed at the same stores. */
  readonly storeEnv: Record<string, string>;
  readonly logs: unknown[][];
  client(origin?: string | null): TestClient;

  cleanup(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 and an ephemeral port, with a fresh DATA_DIR (and a fresh MongoDB
 * database when `TEST_STORES=mongodb`, see `testStoreEnv`).
 */
export const startTestServer = async (
  env: Partial<Record<keyof Config, string>> = {},
  options: Omit<StartOptions, 'log'> = {},
): Promise<TestServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-test-'));
  const storeEnv = testStoreEnv();
  const config = loadConfig({
    ...storeEnv,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_LOGIN: '1000',
    RATE_LIMIT_SIGNUP: '1000',
    RATE_LIMIT_BIDS: '100000',
    RATE_LIMIT_AUCTIONS: '100000',
    RATE_LIMIT_AUCTIONS_PER_ADDRESS: '100000',
    RATE_LIMIT_UPLOADS: '100000',
    RATE_LIMIT_UPLOADS_PER_ADDRESS: '100000',
    RATE_LIMIT_UPLOAD_MB: '1000000',
    RATE_LIMIT_UPLOAD_MB_PER_ADDRESS: '1000000',
    ...env,
  });
  const logs: unknown[][] = [];
  const written = new WrittenPositions();
  const running = await startServer(config, { ...options, log: (...args) => logs.push(args) });
  // The tests meet a server whose read models are caught up (startServer listens before that).
  await running.caughtUp;
  return {
    ...running,
    dataDir,
    storeEnv,
    logs,
    client: (origin) =>
      new TestClient(running.url, origin === undefined ? running.url : origin, new Map(), written),

    cleanup: async () => {
      await running.close();
      await dropTestStores(storeEnv);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** A tiny valid PNG (1x1), for uploads. */
export const PNG_1X1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
