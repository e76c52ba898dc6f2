import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SessionUser } from '@auction/contracts';
import { afterEach, beforeEach, vi } from 'vitest';

/** One request the stand-in received. */
export interface ApiRequest {
  readonly method: string;
  /** Without the `/api/v1` prefix, e.g. `/auction/notifications`. */
  readonly path: string;
  readonly query: URLSearchParams;
}

/** What the stand-in answers: a status (200 by default), a JSON body, and any further headers. */
export interface ApiAnswer {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiStandIn {
  /** Every request so far, in arrival order. */
  readonly requests: ApiRequest[];
  /** What the next requests are answered with (may wait, to hold an answer back). */
  answer: (request: ApiRequest) => ApiAnswer | Promise<ApiAnswer>;
  close(): Promise<void>;
}

/** The API's envelope around a successful answer. */
export const ok = (body: Record<string, unknown> = {}): ApiAnswer => ({
  body: { success: true, message: '', ...body },
});
/** A refusal as the API sends it. */
export const refused = (status: number, message: string): ApiAnswer => ({
  status,
  body: { success: false, message },
});

/**
 * A real HTTP server on an ephemeral port of 127.0.0.1 standing in for the API, for the web
 * app's unit specs (the web workspace may not import @auction/api). The page's calls go to
 * `/api/v1/...` on its own origin: `fetch` is given that origin, as a browser resolves a relative
 * URL against the page. Answers are scripted with `answer`; `vi.unstubAllGlobals` undoes `fetch`.
 */
export const startApiStandIn = async (): Promise<ApiStandIn> => {
  const standIn: ApiStandIn = {
    requests: [],
    answer: () => refused(404, 'Not found'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    for await (const _chunk of req); // the body is not read by any answer
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request = {
      method: req.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, ''),
      query: url.searchParams,
    };
    standIn.requests.push(request);
    const { status = 200, body, headers } = await standIn.answer(request);
    res
      .writeHead(status, { ...headers, 'Content-Type': 'application/json' })
      .end(JSON.stringify(body));
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchFromNode = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    fetchFromNode(new URL(input, origin), init),
  );
  return standIn;
};

/**
 * A fresh stand-in for each test of the calling spec, closed after it with every mock and stubbed
 * global restored. Returns how to reach the current one.
 */
export const apiStandInPerTest = (): (() => ApiStandIn) => {
  let current: ApiStandIn | undefined;
  beforeEach(async () => {
    current = await startApiStandIn();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    await current?.close();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('The API stand-in runs only inside a test');
    return current;
  };
};

/** The signed-in user of the web specs, as `/auth/me` and the session keep them. */
export const ada: SessionUser = {
  _id: 'u1',
  id: 'u1',
  name: 'Ada Lovelace',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  role: 'User',
  image: null,
  createdAt: '2030-01-02T03:04:05.678Z',
};
