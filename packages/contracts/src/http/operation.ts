import type { z } from 'zod';

/** Where the HTTP API lives: every operation's `path` is under it. */
export const API_BASE = '/api/v1';

/**
 * Marks an answer given from read models that had not yet applied the client's last write when
 * the server's wait for them ran out; its value names them (`catalog, watchlist`).
 */
export const READ_MODELS_BEHIND_HEADER = 'Read-Models-Behind';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One route of the API as data: the API registers its handler against it (method and path, and
 * the schemas it parses with), the OpenAPI document describes it, and the web app may call it.
 * `path` is under `API_BASE`, parameters as `{name}`.
 */
export interface Operation {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  /** `user`: needs a session cookie (401 without one). */
  readonly auth: 'none' | 'user';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The body may also come as multipart/form-data with an optional `image` file. */
  readonly multipart?: boolean;
  readonly ok: 200 | 201 | 302;
  /** What the success envelope carries beside `success` and `message`. */
  readonly payload?: Readonly<Record<string, z.ZodType>>;
  /** A body that is not the JSON envelope (the document itself, an NDJSON export). */
  readonly raw?: { readonly contentType: string; readonly schema?: z.ZodType };
}

/** A table of operations by name, each entry keeping its own type (its schemas stay typed). */
export const operationTable = <const T extends Readonly<Record<string, Operation>>>(table: T): T =>
  table;

/** `/auction/watch/{id}` with `{ id: 'a1' }` → `/auction/watch/a1` (each value URI-encoded). */
export const pathOf = (
  operation: Pick<Operation, 'path'>,
  params: Readonly<Record<string, string>> = {},
): string =>
  operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path} needs ${name}`);
    return encodeURIComponent(value);
  });
