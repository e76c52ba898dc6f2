import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares run one after the other as one: the router walks one layer instead of one
 * per middleware (each of its layers matches the path, allocates and calls through a few
 * closures, on every request). Each handler is called as the router calls it: a throw, or a
 * promise it returns that rejects, goes to `next` as an error; `next(error)` skips the rest;
 * `next('route')` goes on with the next handler, as it goes on with the next layer there.
 */
export const inSequence = (...handlers: readonly RequestHandler[]): RequestHandler => {
  const count = handlers.length;
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') {
        next(error);
        return;
      }
      if (index === count) {
        next();
        return;
      }
      const handler = handlers[index++] as RequestHandler;
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise)
          returned.then(undefined, (rejection: unknown) =>
            step(rejection ?? new Error('Rejected promise')),
          );
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
};
