import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { inSequence } from './in-sequence';

const req = {} as Request;
const res = {} as Response;

/** Runs the sequence; resolves with what it passed to `next` (undefined: carried on). */
const run = (handler: RequestHandler) =>
  new Promise<unknown>((resolve) => {
    void handler(req, res, ((error?: unknown) => resolve(error)) as NextFunction);
  });

describe('inSequence', () => {
  it('runs every handler in order, then carries on', async () => {
    const ran: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        ran.push(n);
        next();
      };
    expect(await run(inSequence(step(1), step(2), step(3)))).toBeUndefined();
    expect(ran).toEqual([1, 2, 3]);
  });

  it('stops at an error passed to next, thrown, or rejected, and passes it on', async () => {
    const boom = new Error('boom');
    const later: RequestHandler = () => {
      throw new Error('must not run');
    };
    expect(await run(inSequence((_q, _s, next) => next(boom), later))).toBe(boom);
    expect(
      await run(
        inSequence(() => {
          throw boom;
        }, later),
      ),
    ).toBe(boom);
    expect(await run(inSequence(() => Promise.reject(boom), later))).toBe(boom);
  });

  it("goes on after next('route'), and after a handler that answers later", async () => {
    const ran: string[] = [];
    const result = await run(
      inSequence(
        (_q, _s, next) => next('route'),
        async (_q, _s, next) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          ran.push('async');
          next();
        },
        (_q, _s, next) => {
          ran.push('last');
          next();
        },
      ),
    );
    expect(result).toBeUndefined();
    expect(ran).toEqual(['async', 'last']);
  });
});
