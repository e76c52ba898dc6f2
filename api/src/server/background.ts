import {
  type Clock,
  ClosingScheduler,
  type Engine,
  EndingSoonScheduler,
  type EventStore,
} from '@auction/engine';
import type { AppDeps } from '../app-deps';
import { releaseCancelledAuctionImages } from '../followers/image-cleanup';
import { finishDeletions } from '../http/routes/users/delete-account';
import type { ReadSide } from './read-side/read-models';
import type { WriteSide } from './write-side';

type Log = (message: string, error?: unknown) => void;

export interface Schedulers {
  readonly closing: ClosingScheduler;
  /** The watchlist's "about to end", sent as the closing scheduler sends closes. */
  readonly endingSoon: EndingSoonScheduler;
}

export const dueSchedulers = (
  store: EventStore,
  engine: Engine,
  clock: Clock,
  log: Log,
): Schedulers => ({
  closing: new ClosingScheduler({
    store,
    bus: engine,
    ownership: engine,
    clock,
    onError: (error, auctionId) => log(`Closing ${auctionId} failed; retrying`, error),
  }),
  endingSoon: new EndingSoonScheduler({
    store,
    bus: engine,
    ownership: engine,
    clock,
    onError: (error, auctionId) => log(`Ending soon of ${auctionId} failed; retrying`, error),
  }),
});

export interface BackgroundParts {
  readonly deps: AppDeps;
  readonly read: ReadSide;
  readonly write: WriteSide;
  readonly schedulers: Schedulers;
  /** Test seam: the projections start only once this resolves. */
  readonly holdProjections: Promise<void> | undefined;
  readonly log: Log;
}

/**
 * The work that starts once the server listens: the read models' catch-up, the schedulers, the
 * image clean-up, account closures, and the deletions a crash cut short. Nothing more is started
 * once `closing()` says the server is shutting down. Returns the image clean-up, to close.
 */
export const startBackground = (
  parts: BackgroundParts,
  closing: () => boolean,
): { close(): Promise<void> } => {
  const { deps, read, log } = parts;
  const { readiness } = read;
  const { closures } = parts.write;
  readiness.begin();
  void (parts.holdProjections ?? Promise.resolve())
    .then(() => (closing() ? undefined : read.start()))
    .catch((error: unknown) => {
      if (closing()) return;
      log('The read models could not start', error);
      readiness.fail(error);
    });
  keepStarting(parts.schedulers.closing, 'closing', log, closing);
  keepStarting(parts.schedulers.endingSoon, 'ending-soon', log, closing);
  // The images of auctions cancelled from now on, by any path (account deletions too).
  const cancelledImages = releaseCancelledAuctionImages(deps, read.startHead);
  closures.start(parts.write.engine);
  // Deletions cut short by a crash or a failure, whose user cannot bid or sell any more, are
  // finished once the read models say what those users still have on live auctions.
  void readiness.whenReady
    .then(() => (closing() ? undefined : finishDeletions(deps, closures.unfinished())))
    .catch((error: unknown) => log('Finishing interrupted account deletions failed', error));
  return cancelledImages;
};

/**
 * Starts a scheduler, and again a second later whenever it cannot read the log (the store):
 * auctions must go on closing.
 */
const keepStarting = (
  scheduler: { start(): Promise<void> },
  name: string,
  log: Log,
  closing: () => boolean,
): void => {
  const attempt = (): void => {
    scheduler.start().catch((error: unknown) => {
      if (closing()) return;
      log(`The ${name} scheduler could not read the log; retrying`, error);
      setTimeout(() => {
        if (!closing()) attempt();
      }, 1000).unref();
    });
  };
  attempt();
};
