import { errorCatalog } from '@auction/contracts';
import type { ProjectionRunner } from '@auction/projections';
import type { Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../../app-deps';
import type { ReadModelsHealth, ReadModelsReadiness } from '../../app-deps';
import { type ReadYourWrites, readModelsFor } from './read-your-writes';
import { respond } from '../respond';

/** What a request that needs the read models gets while they are still catching up at start. */
export const STARTING_UP_MESSAGE = 'The marketplace is starting up. Please try again in a moment.';
/** The `Retry-After` (seconds) of that answer. */
export const STARTING_UP_RETRY_AFTER_S = 5;
/** How long such a request waits for the read models before it gets that answer. */
export const DEFAULT_READINESS_WAIT_MS = 2000;
/**
 * How long each store probe of `/health` may take while the read models catch up (2 s otherwise):
 * a catch-up holds the event loop for up to a few hundred milliseconds at a time, more on a busy
 * machine, and a probe's answer waits for it like any request. Below the 5 s that HAProxy's check
 * and the compose healthcheck give the whole answer.
 */
const CATCHING_UP_PROBE_MS = 4000;
/** How long `/health` reuses the read models' positions it last read. */
const LAG_REUSE_MS = 1000;
/** Each wait on the runner is bounded; the readiness loop simply waits again. */
const WAIT_CHUNK_MS = 30_000;

/**
 * Whether the read models have caught up with the log as it stood when the server started
 * (`startHead`). The server listens before that: writes need only the event log, reads of the
 * read models wait (bounded) for this, and `GET /health` reports it. Once ready it stays ready;
 * a read model that falls behind later is the usual read-your-writes lag (`runner.waitFor`).
 */
export class Readiness implements ReadModelsReadiness {
  private state: 'catching-up' | 'ready' | 'failed';
  private failure: string | undefined;
  private stopped = false;
  private markReady: () => void = () => undefined;
  /** Requests waiting (bounded) for the read models; told when they are ready. */
  private readonly waiters = new Set<() => void>();
  /** Resolves once ready; never rejects. */
  readonly whenReady: Promise<void>;

  constructor(
    private readonly runner: Pick<ProjectionRunner, 'waitFor' | 'status'>,
    readonly startHead: number,
    /** How long a request that needs the read models waits for them (`readinessGate`). */
    readonly waitMs = DEFAULT_READINESS_WAIT_MS,
  ) {
    this.state = startHead === 0 ? 'ready' : 'catching-up';
    this.whenReady = new Promise<void>((resolve) => (this.markReady = resolve));
    if (this.state === 'ready') this.markReady();
  }

  /** Follows the runner until every projection reached `startHead` (or `stop`). */
  begin(): void {
    void this.follow();
  }

  isReady(): boolean {
    return this.state === 'ready';
  }

  isFailed(): boolean {
    return this.state === 'failed';
  }

  /** The projections could not start: reads answer 503 and health says why, until a restart. */
  fail(error: unknown): void {
    if (this.state === 'ready') return;
    this.state = 'failed';
    this.failure = error instanceof Error ? error.message : String(error);
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * Whether it is ready within `ms`. A waiter that gives up is forgotten at once, so a flood of
   * requests during a long catch-up holds nothing beyond their own wait.
   */
  within(ms: number): Promise<boolean> {
    if (this.state !== 'catching-up') return Promise.resolve(this.isReady());
    return new Promise<boolean>((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve(this.isReady());
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(this.isReady());
      }, ms);
      this.waiters.add(waiter);
    });
  }

  async health(): Promise<ReadModelsHealth> {
    const projections = await this.runner.status();
    return {
      ready: this.isReady(),
      startHead: this.startHead,
      ...(this.failure === undefined ? {} : { error: this.failure }),
      projections,
    };
  }

  private async follow(): Promise<void> {
    while (this.state === 'catching-up' && !this.stopped) {
      try {
        await this.runner.waitFor(this.startHead, undefined, WAIT_CHUNK_MS);
      } catch {
        // Not there yet: wait again (the runner reports a failing batch through its onError).
        continue;
      }
      if (this.state === 'catching-up') {
        this.state = 'ready';
        this.markReady();
        for (const waiter of this.waiters) waiter();
        this.waiters.clear();
      }
    }
  }
}

/**
 * While the read models catch up, requests that need only the log, accounts and sessions are
 * answered (health, sign-up, login, the audit, and the writes the engine decides from the log);
 * so are the auction page and its bid pages, from the engine's state (`fromEngine`); every other
 * `/api/v1` request waits for the read models it reads (`readModelsFor`).
 */
const needsReadModels = (req: Request): boolean => readModelsFor(req.method, req.path).length > 0;

/** The reads the engine's own state answers as the catalog would: one auction, and its bids. */
const ENGINE_READS = new Set(['/auction/fetchspecificauction', '/auction/bids']);
const answerableByEngine = (req: Request): boolean =>
  req.method === 'GET' && ENGINE_READS.has(req.path.toLowerCase().replace(/\/+$/, ''));

/** The requests the gate let through, while the read models caught up, to be answered from the engine. */
const engineAnswered = new WeakSet<Request>();

/**
 * Whether the route answers this request from the engine's state (`routes/auctions/from-engine.ts`):
 * it came while the read models were catching up at start (or could not start).
 */
export const fromEngine = (req: Request): boolean => engineAnswered.has(req);

/**
 * While the read models catch up at start, a request that needs them waits up to `waitMs` for
 * them, then gets a 503 with `Retry-After` and a message the web app shows, never a stale or
 * empty answer. The auction page and its bid pages do not wait: they are answered at once from
 * the engine's state (`fromEngine`), which is current. Once the read models are ready this passes
 * every request straight on.
 */
export const readinessGate =
  (readiness: ReadModelsReadiness): RequestHandler =>
  (req, res, next) => {
    // Once ready (nearly always), no promise per request.
    if (readiness.isReady() || !needsReadModels(req)) return next();
    if (answerableByEngine(req)) {
      engineAnswered.add(req);
      return next();
    }
    readiness
      .within(readiness.waitMs)
      .then((ready) => {
        if (ready) return next();
        res.set('Retry-After', String(STARTING_UP_RETRY_AFTER_S));
        respond(
          res,
          503,
          readiness.isFailed() ? errorCatalog.UNAVAILABLE.message : STARTING_UP_MESSAGE,
        );
      })
      .catch(next);
  };

/**
 * `GET /health`: 503 when a store (or Kafka) does not answer, the disk is full, or the read models
 * could not start; each read model's lag and the read-your-writes counts always. While the read
 * models catch up it answers 200 with `ready: false`, so a load balancer keeps sending the node the
 * traffic it can already serve.
 */
export const healthRoute = (deps: AppDeps, consistency: Pick<ReadYourWrites, 'counts'>) => {
  // The read models' positions cost reads of the log's head and of the checkpoints another node
  // writes: asked at most once a second, however often health is polled.
  let lag: { at: number; health: Promise<ReadModelsHealth | undefined> } | undefined;
  const readModelsHealth = () => {
    const now = Date.now();
    if (!lag || now - lag.at >= LAG_REUSE_MS)
      lag = {
        at: now,
        health: deps.readiness.health().catch((error: unknown) => {
          deps.log('Health: the read models could not be asked how far they are', error);
          return undefined;
        }),
      };
    return lag.health;
  };
  return async (_req: Request, res: Response): Promise<void> => {
    const catchingUp = !deps.readiness.isReady();
    const [stores, cluster, readModels] = await Promise.all([
      deps.storeHealth(catchingUp ? CATCHING_UP_PROBE_MS : undefined),
      deps.clusterHealth?.(),
      readModelsHealth(),
    ]);
    const reachable =
      Object.values(stores).every((store) => store.reachable) && (cluster?.reachable ?? true);
    const failed = readModels?.error !== undefined;
    const full = Object.values(stores).some((store) => store.writable === false);
    const message = !reachable
      ? cluster?.reachable === false
        ? 'Kafka is unreachable'
        : 'A store is unreachable'
      : full
        ? errorCatalog.STORAGE_UNAVAILABLE.message
        : failed
          ? 'The read models could not start'
          : catchingUp
            ? 'The read models are catching up'
            : 'OK';
    respond(res, reachable && !full && !failed ? 200 : 503, message, {
      stores,
      ...(cluster ? { cluster } : {}),
      ...(catchingUp ? { ready: false } : {}),
      // Each read model's lag behind the log, and how reads fared against clients' tokens.
      ...(readModels ? { readModels } : {}),
      reads: consistency.counts(),
    });
  };
};
