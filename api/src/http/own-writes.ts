import type { RequestHandler } from 'express';
import type { AppDeps } from '../app-deps';

/** Users remembered at once; beyond it the oldest write is forgotten (long since in the catalog). */
const REMEMBERED = 100_000;

/**
 * Read-your-writes for commands answered from their outcome (a placed bid), without holding the
 * answer until the catalog shows the write: the log position each user's last such command wrote
 * is remembered, and that user's next request (any route, on this node) first waits, bounded,
 * until the catalog has applied it. Usually it already has, and the entry is forgotten on the
 * first request that finds it applied. Other users' requests never wait.
 */
export class OwnWrites {
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly deps: Pick<AppDeps, 'runner' | 'log'>,
    private readonly timeoutMs = 2000,
  ) {}

  /** The user's command wrote up to `position` (global position in the log). */
  note(userId: string, position: number | undefined): void {
    if (position === undefined) return;
    const previous = this.pending.get(userId);
    if (previous !== undefined && previous >= position) return;
    // Re-inserted, so the map's order is the order of the last writes.
    this.pending.delete(userId);
    if (this.pending.size >= REMEMBERED) {
      const oldest = this.pending.keys().next();
      if (!oldest.done) this.pending.delete(oldest.value);
    }
    this.pending.set(userId, position);
  }

  /** The position the user still waits for, if any (tests). */
  pendingFor(userId: string): number | undefined {
    return this.pending.get(userId);
  }

  /**
   * Middleware (after the session): a signed-in user's request waits until the catalog shows
   * that user's last remembered write. `skip` names requests that need not wait (placing a bid
   * reads nothing from the catalog). A catalog still behind after the bound is logged, not
   * answered as a failure: the write is durable, only its read model lags.
   */
  middleware(skip: (method: string, path: string) => boolean = () => false): RequestHandler {
    return (req, _res, next) => {
      const userId = req.user?.id;
      if (userId === undefined) return next();
      const position = this.pending.get(userId);
      if (position === undefined || skip(req.method, req.path)) return next();
      this.deps.runner.waitFor(position, ['catalog'], this.timeoutMs).then(
        () => {
          if (this.pending.get(userId) === position) this.pending.delete(userId);
          next();
        },
        (error: unknown) => {
          this.deps.log('The catalog is behind a committed write', error);
          next();
        },
      );
    };
  }
}
