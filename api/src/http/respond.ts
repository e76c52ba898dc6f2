import type { Response } from 'express';

/**
 * Every response: `{ success, message, ...payload }`, success true below 400. Written directly
 * (what `res.status().json()` sends for it, without its charset parsing, ETag or freshness steps:
 * the API sends no ETag, so no request can be answered 304); a HEAD gets the headers alone.
 */
export const respond = (
  res: Response,
  status: number,
  message: string,
  payload: Record<string, unknown> = {},
): void => {
  const body = JSON.stringify({ success: status < 400, message, ...payload });
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (res.req.method === 'HEAD') res.end();
  else res.end(body);
};
