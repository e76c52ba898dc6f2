import type { Request, RequestHandler } from 'express';
import type { AppDeps } from '../../app-deps';
import { clientAddress, counter } from './rate-limit';
import { type QuotaHit, type UploadQuota, imageUpload } from './image-upload';

const HOUR_MS = 60 * 60_000;

const hit =
  (count: ReturnType<typeof counter>, key: string, message: string): QuotaHit =>
  async () => {
    const { over, resetSeconds } = await count(key);
    return over ? { message, retryAfterSeconds: resetSeconds } : undefined;
  };

const uploads = new WeakMap<AppDeps, RequestHandler>();

/**
 * The app's one `imageUpload`, its images counted per user and per client address each hour,
 * across every route that takes one (`RATE_LIMIT_UPLOADS*`, `RATE_LIMIT_UPLOAD_MB*`): past a
 * limit the upload is answered 429 and nothing of it is stored (a sign-up photo has no user
 * yet: its address counts).
 */
export const imageUploadOf = (deps: AppDeps): RequestHandler => {
  const known = uploads.get(deps);
  if (known) return known;
  const { config } = deps;
  const count = (prefix: string, limit: number) =>
    counter({ windowMs: HOUR_MS, limit, store: deps.rateLimits(prefix) });
  const imagesPerUser = count('uploads-user', config.RATE_LIMIT_UPLOADS);
  const imagesPerAddress = count('uploads-address', config.RATE_LIMIT_UPLOADS_PER_ADDRESS);
  const mbPerUser = count('upload-mb-user', config.RATE_LIMIT_UPLOAD_MB);
  const mbPerAddress = count('upload-mb-address', config.RATE_LIMIT_UPLOAD_MB_PER_ADDRESS);
  const IMAGES = 'Too many images uploaded, please try again later';
  const BYTES = 'Too much image data uploaded, please try again later';
  const quota = (req: Request): UploadQuota => {
    const address = clientAddress(req);
    const user = req.user?.id;
    return {
      // The user's first: what their own limit refuses does not use up their address's.
      perImage: [
        ...(user ? [hit(imagesPerUser, user, IMAGES)] : []),
        hit(imagesPerAddress, address, IMAGES),
      ],
      perMebibyte: [
        ...(user ? [hit(mbPerUser, user, BYTES)] : []),
        hit(mbPerAddress, address, BYTES),
      ],
    };
  };
  const upload = imageUpload(() => deps.images, quota);
  uploads.set(deps, upload);
  return upload;
};
