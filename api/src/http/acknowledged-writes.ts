import type { RequestHandler } from 'express';
import type { AppDeps } from '../app-deps';

/**
 * Read-after-acknowledged-write for commands answered from their outcome (a placed bid), without
 * holding the answer until the catalog shows the write: the node remembers the highest log
 * position it has acknowledged, and every request it takes after that (anyone's, signed in or
 * not) first waits, bounded, until the catalog has applied it. Usually it already has: the check
 * is then a comparison, and the wait happens only in the catalog's sub-millisecond lag behind a
 * bid just answered. So a reader on this node never sees a view without a bid it was, or anyone
 * was, already told about. Another node of a cluster does not know this node's acknowledgements.
 */
export class AcknowledgedWrites {
  /** The highest position acknowledged on this node. */
  private acknowledged = 0;
  /** The highest position the catalog is known to have applied. */
  private applied = 0;

  constructor(
    private readonly deps: Pick<AppDeps, 'runner' | 'log'>,
    private readonly timeoutMs = 2000,
  ) {}

  /** A command answered from its outcome wrote up to `position` (global position in the log). */
  note(position: number | undefined): void {
    if (position !== undefined && position > this.acknowledged) this.acknowledged = position;
  }

  /** The acknowledged position the catalog is not yet known to show, if any (tests). */
  pending(): number | undefined {
    return this.acknowledged > this.applied ? this.acknowledged : undefined;
  }

  /**
   * Middleware: a request waits until the catalog shows every write acknowledged before it
   * arrived. `skip` names requests that need not wait (placing a bid reads nothing from the
   * catalog). A catalog still behind after the bound is logged, not answered as a failure: the
   * write is durable, only its read model lags.
   */
  middleware(skip: (method: string, path: string) => boolean = () => false): RequestHandler {
    return (req, _res, next) => {
      const target = this.acknowledged;
      if (target <= this.applied || skip(req.method, req.path)) return next();
      this.deps.runner.waitFor(target, ['catalog'], this.timeoutMs).then(
        () => {
          if (target > this.applied) this.applied = target;
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
