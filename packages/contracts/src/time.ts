import { z } from 'zod';

/**
 * An instant as `YYYY-MM-DDTHH:mm:ss.sssZ` (what `Date#toISOString` prints). The fixed shape makes
 * string order equal time order, so the decider compares instants without parsing them.
 */
export const IsoTime = z.iso.datetime({ precision: 3 });
export type IsoTime = z.infer<typeof IsoTime>;

export const toIsoTime = (ms: number): IsoTime => new Date(ms).toISOString();
export const isoToMs = (iso: IsoTime): number => Date.parse(iso);

export const DAY_MS = 86_400_000;
