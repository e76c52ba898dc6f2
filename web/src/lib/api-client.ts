import { API_BASE, READ_MODELS_BEHIND_HEADER } from '@auction/contracts';
import type { z } from 'zod';

/** A call that failed: the HTTP status (0 when the server was unreachable) and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
    this.name = 'ApiError';
  }
}

type Envelope = { success: boolean; message: string };

/**
 * What a GET answered marked `Read-Models-Behind` gives its caller after the retries: the read
 * models (as the server named them) that had still not applied the client's last write. Absent
 * on an answer that is current.
 */
export interface Behind {
  readonly behind?: readonly string[];
}

/**
 * How a GET marked behind is asked again: after 250 ms, doubling up to 2 s, while the next attempt
 * starts within `budgetMs` of the first answer. With the server's 2 s `READ_WAIT_MS` a read gives
 * up about 8 s after its first answer: long enough for a read model a few seconds behind under
 * load, short enough that a page does not hang on one that has stopped.
 */
export const behindRetry = { firstDelayMs: 250, maxDelayMs: 2000, budgetMs: 6000 } as const;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  form?: FormData;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Runs when any call answers 401: the session the client believed in has ended. */
export const onUnauthorized = (listener: UnauthorizedListener): (() => void) => {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
};

const urlOf = (path: string, query: CallOptions['query']): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
};

/** Resolves after `ms`, or rejects with the signal's AbortError as soon as it is aborted. */
const pause = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof DOMException ? signal.reason : abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });

const abortError = () => new DOMException('The operation was aborted.', 'AbortError');
const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * One call to the API with the session cookie: the whole body, checked against `schema`, or an
 * ApiError when the server says no. A GET answered marked `Read-Models-Behind` is asked again (as
 * `behindRetry` says) and the latest answer used, with `behind` naming the read models still
 * behind, so the page can say it is catching up. Writes are never repeated.
 */
export const call = async <S extends z.ZodType>(
  path: string,
  schema: S,
  options: CallOptions = {},
): Promise<z.infer<S> & Envelope & Behind> => {
  const first = await callOnce(path, schema, options);
  if (first.behind === undefined || (options.method ?? 'GET') !== 'GET') return first;
  let latest = first;
  const started = Date.now();
  for (let delay: number = behindRetry.firstDelayMs; ;) {
    if (Date.now() - started + delay > behindRetry.budgetMs) return latest;
    await pause(delay, options.signal);
    try {
      latest = await callOnce(path, schema, options);
    } catch (error) {
      if (isAbort(error)) throw error;
      return latest;
    }
    if (latest.behind === undefined) return latest;
    delay = Math.min(delay * 2, behindRetry.maxDelayMs);
  }
};

const callOnce = async <S extends z.ZodType>(
  path: string,
  schema: S,
  options: CallOptions,
): Promise<z.infer<S> & Envelope & Behind> => {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, null);
  }
  const payload: unknown = await response.json().catch(() => null);
  const envelope = payload as Partial<Envelope> | null;
  const message = typeof envelope?.message === 'string' ? envelope.message : null;
  if (!response.ok || envelope?.success !== true) {
    if (response.status === 401) unauthorizedListeners.forEach((listener) => listener());
    throw new ApiError(response.status, message);
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    console.error(`Unexpected response from ${path}`, parsed.error);
    throw new ApiError(response.status, null);
  }
  const behind = response.headers.get(READ_MODELS_BEHIND_HEADER);
  return {
    ...(parsed.data as object),
    success: true,
    message: message ?? '',
    ...(behind === null
      ? {}
      : {
          behind: behind
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        }),
  } as z.infer<S> & Envelope & Behind;
};

/**
 * Whether a call failed because the server could not answer (unreachable, a 5xx such as the 503
 * of a server still starting up), not because it said no: such a failure says nothing about what
 * there is, so a list must not read it as empty.
 */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 0 || error.status >= 500);

/** The server's message when it sent one, else the fallback (spec §8). */
export const messageOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
