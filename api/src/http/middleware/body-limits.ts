import { errorCatalog } from '@auction/contracts';
import type { RequestHandler } from 'express';
import { respond } from '../respond';

/** A multipart body declared at most this long is a small form, not an upload (`bodyLimits`). */
export const SMALL_FORM_BYTES = 64 * 1024;

/**
 * Bounds on request bodies, mounted before anything reads one. A body not whole `timeoutMs` after
 * its headers is answered 408 and its connection closed, so nothing it asked for happens. At most
 * `uploadsInProgress` uploads are received at once (one more is answered 503 before a byte of it is
 * read): that bounds the connections and the image-store writes in progress.
 */
export const bodyLimits = (options: {
  readonly timeoutMs: number;
  readonly uploadsInProgress: number;
}): RequestHandler => {
  let uploads = 0;
  return (req, res, next) => {
    const length = req.headers['content-length'];
    const hasBody =
      length === undefined ? req.headers['transfer-encoding'] !== undefined : length !== '0';
    if (!hasBody || req.complete) return next();
    // A form whose declared length is small holds at most that: only a larger one, or one of
    // unknown length, is an upload (a signup without a photo is not held back by uploads).
    const upload =
      typeof req.is('multipart/*') === 'string' &&
      !(length !== undefined && Number(length) <= SMALL_FORM_BYTES);
    if (upload && uploads >= options.uploadsInProgress) {
      res.setHeader('Connection', 'close');
      respond(res, 503, errorCatalog.UPLOADS_BUSY.message);
      return;
    }
    if (upload) uploads++;
    let counted = upload;
    const release = () => {
      if (counted) uploads--;
      counted = false;
    };
    const timer = setTimeout(() => {
      release();
      if (req.complete) return;
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.setHeader('Connection', 'close');
      res.once('finish', () => {
        // Half-close first so that the answer is not lost to a reset, then let go of the rest.
        req.socket.end();
        setTimeout(() => req.socket.destroy(), 1000).unref();
      });
      respond(res, 408, errorCatalog.REQUEST_TIMEOUT.message);
    }, options.timeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      release();
    };
    req.once('end', done);
    req.once('close', done);
    // An answer given before the upload is read (a 401, 403 or 429 of the guards before multer)
    // lets Node drop what remains of it: no longer an upload in progress, but still bounded in
    // time by the timer until it ends.
    res.once('close', release);
    next();
  };
};
