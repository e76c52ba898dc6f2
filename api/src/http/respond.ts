import type { Response } from 'express';

/** Every response: `{ success, message, ...payload }`, success true below 400. */
export const respond = (
  res: Response,
  status: number,
  message: string,
  payload: Record<string, unknown> = {},
): void => {
  res.status(status).json({ success: status < 400, message, ...payload });
};
