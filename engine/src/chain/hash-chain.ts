import { hash } from 'node:crypto';
import { EventMetadata } from '@auction/contracts';

const sha256 = (text: string): string => hash('sha256', text, 'hex');

/**
 * JSON with object keys sorted at every level: the same value always hashes the same. A value
 * whose keys are already in order (the decider and `eventHash` build them so) is `JSON.stringify`
 * itself, about half the cost of writing it key by key.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (inCanonicalOrder(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + canonicalJson(item);
  }
  return out + '}';
};

/**
 * Whether `JSON.stringify` writes exactly what the key-by-key walk above would: every object's
 * own keys in sorted order, no `toJSON` (a `Date` would be written as its string, not as `{}`),
 * and no function or symbol (written `null` above, left out by `JSON.stringify`).
 */
const inCanonicalOrder = (value: object): boolean => {
  if (Array.isArray(value)) {
    for (const item of value as unknown[])
      if (!(item === undefined || plainLeaf(item) || (isObject(item) && inCanonicalOrder(item))))
        return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let previous: string | undefined;
  for (const key of Object.keys(value)) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    const item = (value as Record<string, unknown>)[key];
    if (isObject(item) ? !inCanonicalOrder(item) : !(item === undefined || plainLeaf(item)))
      return false;
  }
  return true;
};

const isObject = (value: unknown): value is object => value !== null && typeof value === 'object';

const plainLeaf = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean';

/**
 * The canonical JSON of `value`, given `json`, its `JSON.stringify` text: that very text when the
 * value is a plain leaf or already in canonical order (no second walk to write it again).
 */
export const canonicalFromJson = (value: unknown, json: string): string =>
  plainLeaf(value) || (isObject(value) && inCanonicalOrder(value)) ? json : canonicalJson(value);

/** The `prevHash` of a stream's first event. */
export const genesisHash = (streamId: string): string => sha256(streamId);

/**
 * Data fields that only their owner and auditors may read: a bidder's maximum (and the one it
 * replaced), the seller's reserve. An event's `hash` covers them only through its commitment.
 */
export const SECRET_FIELDS = ['maxAmount', 'previousMaxAmount', 'reservePrice'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `data` holds any secret field. */
export const holdsSecrets = (data: unknown): boolean =>
  isRecord(data) && SECRET_FIELDS.some((field) => field in data);

/** `data` without its secret fields (itself when it has none). */
export const withoutSecrets = (data: unknown): unknown => {
  if (!holdsSecrets(data)) return data;
  const shown = { ...(data as Record<string, unknown>) };
  for (const field of SECRET_FIELDS) delete shown[field];
  return shown;
};

/**
 * The commitment to an event's secret fields: SHA-256 of them and the event's salt (none present:
 * `{}`). Without the salt's 128 random bits, trying every possible maximum finds nothing.
 */
export const commitmentOf = (salt: string, data: unknown): string => {
  let secrets = '';
  if (isRecord(data))
    for (const field of SECRET_FIELDS)
      if (field in data)
        secrets += `${secrets === '' ? '' : ','}"${field}":${canonicalJson(data[field])}`;
  // `canonicalJson({ salt, secrets })`, written directly: this runs for every event sealed.
  return sha256(`{"salt":${JSON.stringify(salt)},"secrets":{${secrets}}}`);
};

/** The salted form of a request digest (`metadata.request`). */
export const saltedRequest = (salt: string, requestDigest: string): string =>
  sha256(`${salt}\n${requestDigest}`);

export interface ChainLink {
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly data: unknown;
  /** Everything but `hash`. */
  readonly metadata: Omit<EventMetadata, 'hash'>;
}

/**
 * What an event's hash is computed over: with a `salt`, the data without its secrets and the
 * metadata with the commitment in place of the salt; shown with its `commitment` already, the
 * same; sealed before commitments (neither), the data and metadata as they are.
 */
const hashedForm = (link: ChainLink): { data: unknown; metadata: object } => {
  const { salt, commitment, ...rest } = link.metadata;
  if (salt !== undefined) {
    return {
      data: withoutSecrets(link.data),
      metadata: { ...rest, commitment: commitmentOf(salt, link.data) },
    };
  }
  if (commitment !== undefined)
    return { data: withoutSecrets(link.data), metadata: { ...rest, commitment } };
  return { data: link.data, metadata: rest };
};

export const eventHash = (link: ChainLink): string => {
  const { data, metadata } = hashedForm(link);
  return sha256(
    canonicalJson({
      // Keys in sorted order, so the fast path of `canonicalJson` applies.
      data,
      metadata,
      revision: link.revision,
      streamId: link.streamId,
      type: link.type,
    }),
  );
};

/**
 * `eventHash` of a link given as the canonical JSON of its hashed form (`hashedForm`, both
 * defined): the same text `canonicalJson` writes for the whole link, put together without walking
 * it again.
 */
export const eventHashOfCanonical = (
  streamId: string,
  revision: number,
  type: string,
  canonicalData: string,
  canonicalMetadata: string,
): string =>
  sha256(
    `{"data":${canonicalData},"metadata":${canonicalMetadata},"revision":${JSON.stringify(revision)},"streamId":${JSON.stringify(streamId)},"type":${JSON.stringify(type)}}`,
  );

export interface StoredLink {
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

export type ChainVerdict =
  | { readonly ok: true; readonly length: number; readonly headHash: string }
  | {
      readonly ok: false;
      /** Revision of the first event that does not hold. */
      readonly brokenAt: number;
      readonly reason: 'revision-gap' | 'metadata-invalid' | 'prev-hash-mismatch' | 'hash-mismatch';
    };

/**
 * Walks one stream's events in order and names the first broken link: a missing revision, a
 * `prevHash` that is not the previous event's hash, or an event whose content no longer matches
 * its own `hash`. Stored events carry their salt; `shown` events may carry the commitment instead
 * (as a reader who may not see the secrets gets them), whose secret fields the hash then skips.
 */
export const verifyChain = (
  streamId: string,
  events: readonly StoredLink[],
  options: { readonly shown?: boolean } = {},
): ChainVerdict => {
  let expectedPrev = genesisHash(streamId);
  for (const [index, event] of events.entries()) {
    if (event.revision !== index || event.streamId !== streamId) {
      return { ok: false, brokenAt: index, reason: 'revision-gap' };
    }
    const parsed = EventMetadata.safeParse(event.metadata);
    if (!parsed.success) return { ok: false, brokenAt: index, reason: 'metadata-invalid' };
    const { hash: sealed, ...rest } = event.metadata as EventMetadata;
    if (rest.commitment !== undefined && (rest.salt !== undefined || options.shown !== true))
      return { ok: false, brokenAt: index, reason: 'metadata-invalid' };
    if (rest.prevHash !== expectedPrev) {
      return { ok: false, brokenAt: index, reason: 'prev-hash-mismatch' };
    }
    const actual = eventHash({
      streamId,
      revision: index,
      type: event.type,
      data: event.data,
      metadata: rest,
    });
    if (actual !== sealed) return { ok: false, brokenAt: index, reason: 'hash-mismatch' };
    expectedPrev = sealed;
  }
  return { ok: true, length: events.length, headHash: expectedPrev };
};
