import { DomainError, errorCatalog, httpStatusOf } from '@auction/contracts';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MulterError } from 'multer';
import { respond } from '../respond';

export const notFound: RequestHandler = (_req, res) =>
  respond(res, 404, errorCatalog.NOT_FOUND.message);

const requestStatus = (error: unknown): { status: number; message: string } | undefined => {
  // The router's 400 for a path parameter it could not percent-decode.
  if (error instanceof URIError)
    return { status: 400, message: errorCatalog.MALFORMED_PATH.message };
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.parse.failed')
    return { status: 400, message: errorCatalog.MALFORMED_JSON.message };
  if (type === 'entity.too.large') return { status: 413, message: 'The request body is too large' };
  if (typeof type === 'string' && type.startsWith('encoding.'))
    return { status: 415, message: 'Unsupported request encoding' };
  if (type === 'charset.unsupported')
    return { status: 415, message: 'Unsupported request charset' };
  // body-parser's 400 for a body it could not read (e.g. a Content-Encoding it cannot decode).
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if (status === 400 && expose === true)
    return { status: 400, message: 'The request body could not be read' };
  return undefined;
};

/** Codes that mean the disk (or quota) is full: SQLite's, the system's, MongoDB's (`OutOfDiskSpace`). */
const STORAGE_FULL_CODES: ReadonlySet<unknown> = new Set([
  'SQLITE_FULL',
  'ENOSPC',
  'EDQUOT',
  14031,
]);

/**
 * Whether `error`, or an error it was caused by (the engine answers a failed append with
 * `UNAVAILABLE` caused by the store's error), says the storage is full.
 */
export const isStorageFull = (error: unknown): boolean => {
  for (let cause = error, depth = 0; cause && depth < 10; depth++) {
    if (typeof cause !== 'object') return false;
    const { code, codeName } = cause as { code?: unknown; codeName?: unknown };
    if (STORAGE_FULL_CODES.has(code) || codeName === 'OutOfDiskSpace') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
};

/**
 * One encoding of failures for HTTP: a full disk is a 503 `STORAGE_UNAVAILABLE`, domain errors keep
 * their code's status and message, path, body and upload errors become 4xx, anything else is a 500 with
 * a generic message and a log line.
 */
export const errorHandler =
  (log: (message: string, error: unknown) => void): ErrorRequestHandler =>
  (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    // Nothing was written (a failed commit writes nothing): a 503 that says why, not "busy".
    if (isStorageFull(error)) {
      log('Storage is full', error);
      respond(res, 503, errorCatalog.STORAGE_UNAVAILABLE.message);
      return;
    }
    if (error instanceof DomainError) {
      respond(res, httpStatusOf(error.code), error.message);
      return;
    }
    if (error instanceof MulterError) {
      if (error.code === 'LIMIT_FILE_SIZE')
        respond(res, 413, errorCatalog.PAYLOAD_TOO_LARGE.message);
      else respond(res, 400, `Invalid upload: ${error.message}`);
      return;
    }
    const known = requestStatus(error);
    if (known) {
      respond(res, known.status, known.message);
      return;
    }
    log('Unhandled error', error);
    respond(res, 500, errorCatalog.INTERNAL.message);
  };
