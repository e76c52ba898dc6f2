import { IsoTime, toIsoTime } from '@auction/contracts';
import { z } from 'zod';

const REVISION_MESSAGE = 'revision must be a whole number, 0 or more';
const AT_MESSAGE = 'at must be an ISO date-time such as 2030-01-01T12:00:00.000Z';

const isString = (value: unknown): value is string => typeof value === 'string';

const revision = z
  .custom<string>(isString, { error: REVISION_MESSAGE })
  .pipe(z.string().regex(/^\d{1,15}$/, REVISION_MESSAGE))
  .transform(Number)
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, REVISION_MESSAGE));

// Any offset in; out in the fixed UTC form whose string order is the order of business times.
const at = z
  .custom<string>(isString, { error: AT_MESSAGE })
  .pipe(z.iso.datetime({ offset: true, error: AT_MESSAGE }))
  .transform((value) => toIsoTime(Date.parse(value)))
  .refine((value) => IsoTime.safeParse(value).success, { error: 'at is out of range' });

/**
 * Where to stop the fold: through `revision` (inclusive), through the last event whose business
 * time is at or before `at`, or (neither given) through the last event.
 */
export const AuditPoint = z
  .object({ revision: revision.optional(), at: at.optional() })
  .refine((point) => point.revision === undefined || point.at === undefined, {
    error: 'Give either revision or at, not both',
  });
export type AuditPoint = z.infer<typeof AuditPoint>;
