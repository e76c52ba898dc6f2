import { DomainError, errorCatalog, httpStatusOf } from '@auction/contracts';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MulterError } from 'multer';
import { respond } from './respond';

export const notFound: RequestHandler = (_req, res) =>
  respond(res, 404, errorCatalog.NOT_FOUND.message);

const bodyParserStatus = (error: unknown): { status: number; message: string } | undefined => {
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

/**
 * One encoding of failures for HTTP: domain errors keep their code's status and message, body and
 * upload errors become 4xx, anything else is a 500 with a generic message and a log line.
 */
export const errorHandler =
  (log: (message: string, error: unknown) => void): ErrorRequestHandler =>
  (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
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
    const known = bodyParserStatus(error);
    if (known) {
      respond(res, known.status, known.message);
      return;
    }
    log('Unhandled error', error);
    respond(res, 500, errorCatalog.INTERNAL.message);
  };
