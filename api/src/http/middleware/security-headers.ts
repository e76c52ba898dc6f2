import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, computed once: helmet is run against a recorder at start-up, and each request
 * then gets the recorded headers set in one loop instead of a dozen chained middlewares. Only for
 * options whose headers do not depend on the request (no CSP nonces or directive functions): a
 * helmet that does not finish synchronously, or fails, is refused at start-up.
 */
export const securityHeaders = (options: Readonly<HelmetOptions>): RequestHandler => {
  const headers: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let finished = false;
  helmet(options)(
    {} as Parameters<RequestHandler>[0],
    recorder as unknown as Parameters<RequestHandler>[1],
    (error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error('helmet failed');
      finished = true;
    },
  );
  if (!finished)
    throw new Error('helmet did not finish synchronously: its headers vary by request');
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
};
