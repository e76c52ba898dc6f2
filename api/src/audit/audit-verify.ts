import { isDeepStrictEqual } from 'node:util';
import type {
  AuditChainCheck,
  AuditEvent,
  AuditDifference,
  AuditReadModelCheck,
  AuditTruncationCheck,
} from '@auction/contracts';
import { type RecordedEvent, verifyChain } from '@auction/engine';
import {
  type CollectionSpec,
  type Doc,
  type ReadStore,
  type Where,
  SqliteReadStore,
  activityAuctions,
  activityHistory,
  allProjections,
  applyBatch,
  catalogAuctions,
  catalogBids,
  catalogCategories,
  notificationsCollections,
  watchlistCollections,
  winningsCollections,
} from '@auction/projections';

const MAX_DIFFERENCES = 200;
const IN_CHUNK = 500;

export const chainCheck = (streamId: string, events: readonly RecordedEvent[]): AuditChainCheck => {
  const verdict = verifyChain(streamId, events);
  return verdict.ok
    ? { ok: true, length: verdict.length, headHash: verdict.headHash }
    : { ok: false, length: events.length, brokenAt: verdict.brokenAt, reason: verdict.reason };
};

/** `chainCheck` of events as a reader was shown them, and where their hashes stop being shown. */
export type ShownChainCheck = AuditChainCheck & {
  /** The first revision whose hash was withheld (see `sellerView`), null when none was. */
  readonly withheldFrom: number | null;
};

/**
 * Checks the chain of one stream's events as a reader was shown them (an export, the events
 * route): secrets under their commitments, and hashes withheld from the first event sealed before
 * commitments that holds a maximum. The events up to that one are checked, and its `prevHash`.
 */
export const checkShownChain = (events: readonly AuditEvent[]): ShownChainCheck => {
  const streamId = events[0]?.streamId ?? '';
  const cut = events.findIndex((event) => event.hash === null);
  const checked = cut < 0 ? events : events.slice(0, cut);
  const verdict = verifyChain(streamId, checked, { shown: true });
  const withheldFrom = cut < 0 ? null : cut;
  if (!verdict.ok)
    return {
      ok: false,
      length: events.length,
      brokenAt: verdict.brokenAt,
      reason: verdict.reason,
      withheldFrom,
    };
  const first = events[cut];
  if (first !== undefined && first.prevHash !== null && first.prevHash !== verdict.headHash)
    return {
      ok: false,
      length: events.length,
      brokenAt: cut,
      reason: 'prev-hash-mismatch',
      withheldFrom,
    };
  return { ok: true, length: verdict.length, headHash: verdict.headHash, withheldFrom };
};

/** What the catalog recorded of the last event it applied to the auction. */
export interface CatalogMark {
  readonly revision: number;
  readonly position: number;
}

/**
 * Events cut off the end of a stream leave the chain intact, but the catalog still records the
 * revision and global position of the last event it applied: the log must hold that very event
 * (same revision, same position) and nothing may be missing after the catalog's revision.
 */
export const truncationCheck = (
  events: readonly RecordedEvent[],
  mark: CatalogMark | undefined,
): AuditTruncationCheck => {
  const last = events[events.length - 1];
  const base = {
    logRevision: last?.revision ?? null,
    logPosition: last?.position ?? null,
    recordedRevision: mark?.revision ?? null,
    recordedPosition: mark?.position ?? null,
  };
  if (mark === undefined) {
    return { ok: true, ...base, message: 'The catalog has recorded no event of this auction' };
  }
  if (last === undefined || last.revision < mark.revision) {
    const end =
      last === undefined
        ? 'the log has no event of it'
        : `the log ends at revision ${last.revision}`;
    return {
      ok: false,
      ...base,
      message: `Events were cut off the end of the stream: the catalog applied revision ${mark.revision}, ${end}`,
    };
  }
  const seen = events.find((event) => event.revision === mark.revision);
  if (seen?.position !== mark.position) {
    return {
      ok: false,
      ...base,
      message: `The event at revision ${mark.revision} is not the one the catalog applied (log position ${seen?.position ?? 'none'}, catalog position ${mark.position})`,
    };
  }
  return {
    ok: true,
    ...base,
    message:
      last.revision === mark.revision
        ? `The log ends where the catalog does, at revision ${last.revision}`
        : `The catalog applied revision ${mark.revision}; the log goes on to revision ${last.revision}`,
  };
};

interface Scope {
  readonly projection: string;
  readonly collection: string;
  readonly ids?: readonly string[];
  readonly where?: readonly Where[];
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * Every read-model document that concerns one auction, by projection. Per-user profile counters
 * (`activity_profiles`) add up every auction of a user, so one auction's replay cannot rebuild
 * them; notification cursors are the API's state, not a projection's.
 */
const scopesOf = (
  auctionId: string,
  categoryId: string | undefined,
  positions: readonly number[],
): Scope[] => {
  const category = categoryId === undefined ? [] : [categoryId];
  return [
    { projection: 'catalog', collection: catalogAuctions.name, ids: [auctionId] },
    { projection: 'catalog', collection: catalogBids.name, where: [{ auctionId }] },
    { projection: 'catalog', collection: catalogCategories.name, ids: category },
    { projection: 'activity', collection: activityAuctions.name, ids: [auctionId] },
    { projection: 'activity', collection: activityHistory.name, where: [{ auctionId }] },
    { projection: 'winnings', collection: winningsCollections.auctions.name, ids: [auctionId] },
    { projection: 'winnings', collection: winningsCollections.items.name, ids: [auctionId] },
    { projection: 'winnings', collection: winningsCollections.categories.name, ids: category },
    {
      projection: 'notifications',
      collection: notificationsCollections.auctions.name,
      ids: [auctionId],
    },
    {
      projection: 'notifications',
      collection: notificationsCollections.bids.name,
      where: [{ auctionId }],
    },
    {
      projection: 'notifications',
      collection: notificationsCollections.items.name,
      where: chunks(positions, IN_CHUNK).map((chunk) => ({ position: { in: chunk } })),
    },
    // Its watchers' entries: the replay carries their watch events (`watcher-events.ts`).
    { projection: 'watchlist', collection: watchlistCollections.auctions.name, ids: [auctionId] },
    {
      projection: 'watchlist',
      collection: watchlistCollections.entries.name,
      where: [{ auctionId }],
    },
  ];
};

const documentsOf = async (store: ReadStore, scope: Scope): Promise<Map<string, Doc>> => {
  const found = new Map<string, Doc>();
  if (scope.ids) {
    for (const [id, doc] of await store.getMany(scope.collection, scope.ids)) found.set(id, doc);
  }
  for (const where of scope.where ?? []) {
    for (const doc of await store.find(scope.collection, { where })) found.set(doc._id, doc);
  }
  return found;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type FieldDifference = Pick<AuditDifference, 'path' | 'stored' | 'replayed'>;

const fieldDifferences = (
  stored: unknown,
  replayed: unknown,
  path: string,
  out: FieldDifference[],
): void => {
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (isRecord(stored) && isRecord(replayed)) {
    const keys = [...new Set([...Object.keys(stored), ...Object.keys(replayed)])].sort();
    for (const key of keys) fieldDifferences(stored[key], replayed[key], at(key), out);
  } else if (Array.isArray(stored) && Array.isArray(replayed)) {
    for (let i = 0; i < Math.max(stored.length, replayed.length); i++) {
      fieldDifferences(stored[i], replayed[i], at(i), out);
    }
  } else if (!isDeepStrictEqual(stored, replayed)) {
    out.push({
      path,
      ...(stored === undefined ? {} : { stored }),
      ...(replayed === undefined ? {} : { replayed }),
    });
  }
};

export interface ReadModelComparison {
  readonly auctionId: string;
  readonly categoryId: string | undefined;
  /** The auction's events and its category's, in global order: what the replay applies. */
  readonly replay: readonly RecordedEvent[];
  /** Global positions of the auction's own events. */
  readonly positions: readonly number[];
}

/**
 * Runs the real projections over the auction's events into a fresh in-memory read store and
 * compares every document that concerns the auction with the stored one, `_position` included:
 * the replay applies the events at their own global positions, so an honest read model holds the
 * very same numbers. A read model that has not reached the auction's last event is not compared.
 */
export const compareReadModels = async (
  stored: ReadStore,
  { auctionId, categoryId, replay, positions }: ReadModelComparison,
): Promise<AuditReadModelCheck> => {
  const fresh = new SqliteReadStore({ filename: ':memory:' });
  try {
    const specs = new Map<string, CollectionSpec>();
    for (const projection of allProjections) {
      for (const spec of projection.collections) specs.set(spec.name, spec);
    }
    await fresh.ensureCollections([...specs.values()]);
    await stored.ensureCollections([...specs.values()]);
    const lastPosition = replay.reduce((max, event) => Math.max(max, event.position), 0);
    const scopes = scopesOf(auctionId, categoryId, positions);
    const differences: AuditDifference[] = [];
    let total = 0;
    const projections: AuditReadModelCheck['projections'] = [];
    for (const projection of allProjections) {
      const checkpoint = (await stored.checkpoint(projection.name)) ?? null;
      const behind = replay.length > 0 && (checkpoint ?? 0) < lastPosition;
      let documents = 0;
      if (!behind) {
        await applyBatch(fresh, specs, projection, replay);
        for (const scope of scopes.filter((s) => s.projection === projection.name)) {
          const mine = await documentsOf(stored, scope);
          const theirs = await documentsOf(fresh, scope);
          const ids = [...new Set([...mine.keys(), ...theirs.keys()])].sort();
          documents += ids.length;
          for (const id of ids) {
            const base = {
              projection: projection.name,
              collection: scope.collection,
              documentId: id,
            };
            const storedDoc = mine.get(id);
            const replayedDoc = theirs.get(id);
            const found: AuditDifference[] =
              storedDoc === undefined
                ? [{ ...base, kind: 'missing', path: '', replayed: replayedDoc }]
                : replayedDoc === undefined
                  ? [{ ...base, kind: 'unexpected', path: '', stored: storedDoc }]
                  : (() => {
                      const fields: FieldDifference[] = [];
                      fieldDifferences(storedDoc, replayedDoc, '', fields);
                      return fields.map((f) => ({ ...base, kind: 'changed' as const, ...f }));
                    })();
            total += found.length;
            differences.push(...found.slice(0, Math.max(0, MAX_DIFFERENCES - differences.length)));
          }
        }
      }
      projections.push({ name: projection.name, checkpoint, behind, documents });
    }
    return {
      ok: total === 0 && projections.every((p) => !p.behind),
      projections,
      differences,
      omitted: total - differences.length,
    };
  } finally {
    await fresh.close();
  }
};
