import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one router layer, which saves the router's per-layer matching and
 * closures on every request. Each handler is called as the router would call it: a throw or a
 * rejected promise goes to `next` as an error, `next(error)` skips the rest, and `next('route')`
 * goes on with the next handler.
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
