import {
  type AuditEvent,
  type AuditPoint,
  type AuditState,
  type AuditTimeline,
  type PublicUser,
  type AuditVerification,
  AuctionCreated,
  CategoryCreated,
  DomainError,
  auctionStream,
  categoryStream,
  deletedUser,
  rejection,
} from '@auction/contracts';
import type { EventStore, RecordedEvent } from '@auction/engine';
import {
  type Doc,
  type ImageUrl,
  type ReadStore,
  type UserDirectory,
  catalogAuctions,
  catalogProjection,
} from '@auction/projections';
import { type AuditReader, toAuditEvent, viewFor } from './audit-events';
import { foldTo, toAuditState } from './audit-state';
import { timelineOf } from './audit-timeline';
import { chainCheck, compareReadModels, truncationCheck } from './audit-verify';
import { watcherEventsOf } from './watcher-events';

export interface AuctionAuditDeps {
  readonly events: Pick<EventStore, 'readStream' | 'streamRevision'>;
  readonly read: ReadStore;
  readonly users: UserDirectory;
  /** How the state writes the auction's image (default: the stored path; `stores/images/image-urls.ts`). */
  readonly imageUrl?: ImageUrl;
  /** Waits (bounded) for the read models to apply a global position; the server's runner does. */
  readonly waitForReadModels?: (position: number) => Promise<void>;
}

/** Who an auction belongs to, from its first event (or the catalog when the log has none). */
export interface AuctionOwner {
  readonly sellerId: string | undefined;
}

const PAGE_SIZE = 500;
const ATTEMPTS = 3;

const notFound = () => new DomainError(rejection('AUCTION_NOT_FOUND'));

/**
 * Replay, verification and export of one auction's stream: the logic behind the audit routes and
 * `npm run audit`, on whatever event store and read store they are given.
 */
export class AuctionAudit {
  constructor(private readonly deps: AuctionAuditDeps) {}

  /** The seller, or a 404 when neither the log nor the catalog knows the auction. */
  async owner(auctionId: string): Promise<AuctionOwner> {
    const [first] = await this.deps.events.readStream(auctionStream(auctionId), {
      fromRevision: 0,
      toRevision: 0,
    });
    const created = first && AuctionCreated.safeParse({ type: first.type, data: first.data });
    if (created?.success) return { sellerId: created.data.data.sellerId };
    const catalog = await this.catalogDoc(auctionId);
    if (!first && !catalog) throw notFound();
    return { sellerId: typeof catalog?.sellerId === 'string' ? catalog.sellerId : undefined };
  }

  /** Every event of the stream, in order, as `reader` may see them. */
  async events(auctionId: string, reader: AuditReader = 'auditor'): Promise<AuditEvent[]> {
    const stored = (await this.deps.events.readStream(auctionStream(auctionId))).map(toAuditEvent);
    return reader === 'auditor' ? stored : stored.map(viewFor(reader));
  }

  /**
   * The stream read page by page up to the revision it had when this started (a snapshot, however
   * long the stream), for the export, as `reader` may see it.
   */
  async *eventPages(
    auctionId: string,
    reader: AuditReader = 'auditor',
  ): AsyncGenerator<AuditEvent[]> {
    const stream = auctionStream(auctionId);
    const last = await this.deps.events.streamRevision(stream);
    if (last === undefined) return;
    const shown = viewFor(reader);
    for (let from = 0; from <= last; from += PAGE_SIZE) {
      const page = await this.deps.events.readStream(stream, {
        fromRevision: from,
        toRevision: Math.min(last, from + PAGE_SIZE - 1),
      });
      yield page.map((event) => shown(toAuditEvent(event)));
    }
  }

  /** The auction folded to the point (its last event when the point is empty). */
  async state(
    auctionId: string,
    point: AuditPoint,
    reader: AuditReader = 'auditor',
  ): Promise<AuditState> {
    const events = await this.events(auctionId);
    const last = events[events.length - 1];
    if (point.revision !== undefined && (last === undefined || point.revision > last.revision)) {
      throw new DomainError(
        rejection(
          'VALIDATION_FAILED',
          { field: 'revision' },
          last === undefined
            ? 'This auction has no events in the log'
            : `revision must be at most ${last.revision}, the auction's last revision`,
        ),
      );
    }
    const folded = foldTo(events, point);
    const categoryId = folded.state.categoryId;
    // The reached event as the reader sees it, which may depend on the events before it.
    const shown = viewFor(reader);
    let reached: AuditEvent | undefined;
    for (const event of events) {
      if (folded.reached === undefined || event.revision > folded.reached.revision) break;
      reached = shown(event);
    }
    return toAuditState(
      { ...folded, reached },
      {
        auctionId,
        lastRevision: last?.revision ?? null,
        categoryName: categoryId === null ? null : await this.categoryName(categoryId),
        users: this.deps.users,
        maxima: reader === 'auditor',
        ...(this.deps.imageUrl ? { imageUrl: this.deps.imageUrl } : {}),
      },
    );
  }

  /**
   * Each event with its actor and the board fields it changed (a seller's without maxima), and
   * the users the steps name; 404 when neither the log nor the catalog knows the auction.
   */
  async timeline(auctionId: string, reader: AuditReader = 'auditor'): Promise<AuditTimeline> {
    const events = await this.events(auctionId);
    const { steps, userIds } = timelineOf(events, reader);
    const users =
      userIds.size === 0
        ? new Map<string, PublicUser>()
        : await this.deps.users.lookup([...userIds]);
    return {
      auctionId,
      lastRevision: events[events.length - 1]?.revision ?? null,
      steps,
      users: [...userIds].map((id) => users.get(id) ?? deletedUser(id)),
    };
  }

  /**
   * Checks the hash chain, that no event was cut off the end the catalog had seen, and that every
   * read-model document equals a fresh replay's; retried when the auction gains events meanwhile.
   * A seller gets the verdicts without the documents' values, nor a head hash its events hide.
   */
  async verify(auctionId: string, reader: AuditReader = 'auditor'): Promise<AuditVerification> {
    const stream = auctionStream(auctionId);
    for (let attempt = 1; ; attempt++) {
      const events = await this.deps.events.readStream(stream);
      const last = events[events.length - 1];
      if (last) await this.deps.waitForReadModels?.(last.position);
      const catalog = await this.catalogDoc(auctionId);
      if (!last && !catalog) throw notFound();
      const categoryId = this.categoryOf(events) ?? textOf(catalog?.categoryId);
      const categoryEvents =
        categoryId === undefined
          ? []
          : await this.deps.events.readStream(categoryStream(categoryId));
      const watchers = await watcherEventsOf(this.deps.events, this.deps.read, auctionId);
      const replay = [...categoryEvents, ...watchers, ...events].sort(
        (a, b) => a.position - b.position,
      );
      const chain = chainCheck(stream, events);
      const truncation = truncationCheck(
        events,
        catalog && typeof catalog.revision === 'number'
          ? { revision: catalog.revision, position: catalog._position }
          : undefined,
      );
      const readModels = await compareReadModels(this.deps.read, {
        auctionId,
        categoryId,
        replay,
        positions: events.map((event) => event.position),
      });
      const now = await this.deps.events.streamRevision(stream);
      if (now !== last?.revision && attempt < ATTEMPTS) continue;
      const problems = [
        ...(chain.ok
          ? []
          : [`The hash chain breaks at revision ${chain.brokenAt} (${chain.reason})`]),
        ...(truncation.ok ? [] : [truncation.message]),
        ...(readModels.differences.length + readModels.omitted > 0
          ? [
              `${readModels.differences.length + readModels.omitted} difference(s) between the read models and a fresh replay`,
            ]
          : []),
      ];
      const behind = readModels.projections.filter((p) => p.behind).map((p) => p.name);
      const verification = {
        auctionId,
        ok: problems.length === 0 && behind.length === 0,
        problems,
        behind,
        chain,
        truncation,
        readModels,
      };
      return reader === 'auditor'
        ? verification
        : forSeller(verification, events.map(toAuditEvent).map(viewFor(reader)));
    }
  }

  private async catalogDoc(auctionId: string): Promise<Doc | undefined> {
    await this.deps.read.ensureCollections(catalogProjection.collections);
    return this.deps.read.get(catalogAuctions.name, auctionId);
  }

  private categoryOf(events: readonly RecordedEvent[]): string | undefined {
    const [first] = events;
    const created = first && AuctionCreated.safeParse({ type: first.type, data: first.data });
    return created?.success ? created.data.data.categoryId : undefined;
  }

  private async categoryName(categoryId: string): Promise<string | null> {
    const [first] = await this.deps.events.readStream(categoryStream(categoryId), {
      fromRevision: 0,
      toRevision: 0,
    });
    const created = first && CategoryCreated.safeParse({ type: first.type, data: first.data });
    return created?.success ? created.data.data.name : null;
  }
}

/** What `verify` tells a seller, who sees the stream as `shown`. */
const forSeller = (
  verification: AuditVerification,
  shown: readonly AuditEvent[],
): AuditVerification => {
  const { chain, readModels } = verification;
  const head = shown[shown.length - 1]?.hash ?? null;
  return {
    ...verification,
    chain: chain.ok ? { ...chain, headHash: shown.length === 0 ? chain.headHash : head } : chain,
    readModels: {
      ...readModels,
      differences: readModels.differences.map(
        ({ stored: _stored, replayed: _replayed, ...where }) => where,
      ),
    },
  };
};

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
