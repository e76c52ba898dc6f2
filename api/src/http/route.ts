import type { Operation } from '@auction/contracts';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { parseInput } from './validate';

type Parsed<O, K extends 'params' | 'query' | 'body'> = O extends {
  readonly [key in K]: infer S extends z.ZodType;
}
  ? z.output<S>
  : never;

/**
 * A request's inputs, each parsed with its operation's own schema when the handler asks (a 400
 * with the first problem's message when it does not fit): the handler decides the order, so a
 * stranger's edit is refused with 403 before its body is judged.
 */
export interface Inputs<O extends Operation> {
  params(): Parsed<O, 'params'>;
  query(): Parsed<O, 'query'>;
  body(): Parsed<O, 'body'>;
}

export type OperationHandler<O extends Operation> = (
  req: Request,
  res: Response,
  input: Inputs<O>,
) => void | Promise<void>;

const inputsOf = <O extends Operation>(operation: O, req: Request): Inputs<O> => {
  const parse = (schema: z.ZodType | undefined, value: unknown, what: string) => {
    if (!schema) throw new Error(`${operation.method} ${operation.path} takes no ${what}`);
    return parseInput(schema, value) as never;
  };
  return {
    params: () => parse(operation.params, req.params, 'path parameters'),
    query: () => parse(operation.query, req.query, 'query'),
    body: () => parse(operation.body, req.body ?? {}, 'body'),
  };
};

/** `/watch/{id}` → `/watch/:id`, as Express writes a path's parameters. */
const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers handlers on a router mounted at `mount` (under `/api/v1`), each against its entry of
 * the contracts' route table: the method and path come from the entry, so a route cannot exist
 * without one, and `input` parses with the entry's schemas. The middlewares run first, in order.
 */
export const routesOn =
  (router: Router, mount = '') =>
  <O extends Operation>(
    operation: O,
    ...handlers: [...RequestHandler[], OperationHandler<O>]
  ): void => {
    if (!operation.path.startsWith(`${mount}/`))
      throw new Error(`${operation.path} is not under ${mount || '/'}`);
    const middlewares = handlers.slice(0, -1) as RequestHandler[];
    const handler = handlers[handlers.length - 1] as OperationHandler<O>;
    router[operation.method](
      expressPath(operation.path.slice(mount.length)),
      ...middlewares,
      (req: Request, res: Response) => handler(req, res, inputsOf(operation, req)),
    );
  };
