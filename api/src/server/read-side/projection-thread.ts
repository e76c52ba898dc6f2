import { Worker } from 'node:worker_threads';
import type { ProjectionStatus, Write } from '@auction/projections';
import type { ReadModels } from '../../app-deps';
import { type FromThread, type ThreadData, type ToThread, revived } from './protocol';

export interface ProjectionThreadOptions {
  /** What the thread opens and runs (see `ThreadData`). */
  readonly data: ThreadData;
  /** The projections' names, in the runner's order (`allProjections`). */
  readonly names: readonly string[];
  /** The log's head, for `status()` while the thread is being restarted. */
  readonly head: () => Promise<number | undefined>;
  /** As the runner's: each batch committed, with its news only (see `start`). */
  readonly onCommitted?: (name: string, writes: readonly Write[], position: number) => void;
  /** As the runner's: a failed batch or lease round, named after its projection. */
  readonly onError?: (error: unknown, name: string) => void;
  /** The thread itself failing, exiting, being restarted. */
  readonly log: (message: string, error?: unknown) => void;
  /** Wait before a thread that died is started again; default 1 s. */
  readonly restartMs?: number;
  /** How long `stop` waits for the thread to finish its batch before ending it; default 10 s. */
  readonly stopTimeoutMs?: number;
}

/** How long `status` waits for the thread before it answers from the positions it knows. */
const STATUS_WAIT_MS = 2000;

interface Waiter {
  readonly position: number;
  readonly names: readonly string[];
  readonly done: () => void;
}

/**
 * The thread's entry, plain JavaScript that registers tsx and imports `projection-worker.ts`: on
 * Node 20 a Worker does not run TypeScript through the `--import tsx` it inherits, and under
 * vitest there is none to inherit.
 */
const WORKER = new URL('./projection-worker.mjs', import.meta.url);

/**
 * The read models' runner on a thread of its own, so batches never hold the request thread.
 * `reached` and `waitFor` answer from the positions the thread posts (no I/O); `status` and
 * `rebuild` ask it. A thread that dies after starting is restarted after `restartMs` and resumes
 * from its checkpoints; one that fails to start fails `start`. The protocol: [README](README.md).
 */
export class ProjectionThread implements ReadModels {
  private worker: Worker | undefined;
  /** Threads started and not yet exited (a stopped one until it has exited). */
  private readonly live = new Set<Worker>();
  private readonly positions = new Map<string, number>();
  private waiters: Waiter[] = [];
  private readonly requests = new Map<
    number,
    { resolve: (status: ProjectionStatus[] | undefined) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private newsAfter = 0;
  private starting: Promise<void> | undefined;
  private settleStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** A thread has reported that it started: from then on, one that dies is restarted. */
  private started = false;
  private stopping: Promise<void> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private onStopped: (() => void) | undefined;
  /** The threads (by `threadId`) that committed batches: never the request thread's. */
  readonly committedOn = new Set<number>();

  constructor(private readonly options: ProjectionThreadOptions) {
    for (const name of options.names) this.positions.set(name, 0);
  }

  /**
   * Starts the thread without starting the projections: it loads its modules and opens its stores
   * meanwhile (seconds on a busy machine), while the server opens its own. Optional.
   */
  warm(): void {
    if (!this.worker && !this.stopping) this.spawn();
  }

  /**
   * Starts the projections on the thread; puts of documents at or before `newsAfter` (what the
   * catch-up re-creates) are not posted back. Resolves once they have caught up.
   */
  start(newsAfter = 0): Promise<void> {
    this.newsAfter = newsAfter;
    this.starting ??= new Promise<void>((resolve, reject) => {
      this.settleStart = { resolve, reject };
      this.warm();
      this.post({ type: 'start', newsAfter });
    });
    return this.starting;
  }

  /**
   * Asks the thread to stop its batch and close its stores, then ends it; after `stopTimeoutMs`
   * it is ended whatever it is doing (its batch is not committed and replays from the checkpoint).
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      clearTimeout(this.restartTimer);
      // A start cut short by the stop is over, as the runner's is.
      this.settleStart?.resolve();
      const worker = this.worker;
      if (!worker) return;
      this.worker = undefined;
      // Only warmed (the server's start-up failed): no batch to finish.
      if (!this.starting) {
        await worker.terminate();
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.onStopped = resolve;
        timer = setTimeout(resolve, this.options.stopTimeoutMs ?? 10_000);
        worker.postMessage({ type: 'stop' } satisfies ToThread);
      });
      clearTimeout(timer);
      await worker.terminate();
    })();
    return this.stopping;
  }

  async rebuild(names: string | readonly string[]): Promise<void> {
    await this.request((id) => ({
      type: 'rebuild',
      id,
      names: typeof names === 'string' ? [names] : names,
    }));
  }

  async status(): Promise<ProjectionStatus[]> {
    let error = this.stopping ? undefined : 'The read models’ thread is starting';
    if (this.worker) {
      // A thread held by a long batch (or stuck) answers late: health does not wait for it.
      const status = await this.request((id) => ({ type: 'status', id }), STATUS_WAIT_MS).catch(
        () => undefined,
      );
      if (status) return status;
      error = `The read models’ thread did not answer within ${STATUS_WAIT_MS} ms`;
    }
    // No thread to ask (starting, restarting, stopped), or no answer: the positions it last told.
    const head = (await this.options.head()) ?? 0;
    return [...this.positions].map(([name, position]) => ({
      name,
      role: 'running' as const,
      position,
      behind: Math.max(0, head - position),
      sinceLastBatchMs: undefined,
      error,
    }));
  }

  reached(position: number, names?: readonly string[]): boolean {
    for (const name of names ?? this.positions.keys()) {
      const known = this.positions.get(name);
      if (known === undefined) throw new Error(`Unknown projection ${name}`);
      if (known < position) return false;
    }
    return true;
  }

  waitFor(position: number, names?: readonly string[], timeoutMs = 5000): Promise<void> {
    const targets = names ?? [...this.positions.keys()];
    if (this.reached(position, targets)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        position,
        names: targets,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`Projections did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.waiters.push(waiter);
      // With leases, the thread polls the followed projections' checkpoints while someone waits.
      if (this.options.data.lease)
        this.post({ type: 'wait', position, names: targets, ms: timeoutMs });
    });
  }

  followedCheckpoint(name: string, position: number): void {
    this.post({ type: 'followed', name, position });
  }

  /** An append committed up to `position` (here, or on another node): the thread reads it now. */
  appended(position: number): void {
    this.post({ type: 'appended', position });
  }

  /** Whether a thread is running (or still ending). */
  isRunning(): boolean {
    return this.live.size > 0;
  }

  /** Test seam: an uncaught exception on the thread, or a batch that never ends. */
  fault(fault: 'crash' | 'block'): void {
    this.post({ type: 'fault', fault });
  }

  private post(message: ToThread): void {
    this.worker?.postMessage(message);
  }

  /** Asks the thread; after `waitMs` (if given) answers undefined and forgets the request. */
  private request(
    message: (id: number) => ToThread,
    waitMs?: number,
  ): Promise<ProjectionStatus[] | undefined> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('The read models’ thread is not running'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer =
        waitMs === undefined
          ? undefined
          : setTimeout(() => {
              this.requests.delete(id);
              resolve(undefined);
            }, waitMs);
      this.requests.set(id, {
        resolve: (status) => {
          clearTimeout(timer);
          resolve(status);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage(message(id));
    });
  }

  /** Requests sent to the thread and not yet answered, failed or given up on. */
  get unanswered(): number {
    return this.requests.size;
  }

  private spawn(): void {
    const worker = new Worker(WORKER, {
      workerData: this.options.data,
      name: 'read models',
    });
    // Never what keeps the process alive: `stop` ends it.
    worker.unref();
    this.worker = worker;
    this.live.add(worker);
    worker.on('message', (message: FromThread) => this.receive(message));
    worker.on('error', (error) => this.options.log('The read models’ thread failed', error));
    worker.on('exit', (code) => this.exited(worker, code));
  }

  private receive(message: FromThread): void {
    switch (message.type) {
      case 'position':
        this.moved(message.name, message.position);
        return;
      case 'committed':
        this.committedOn.add(message.threadId);
        this.moved(message.name, message.position);
        this.options.onCommitted?.(message.name, message.writes, message.position);
        return;
      case 'error':
        this.options.onError?.(revived(message.error), message.name);
        return;
      case 'started':
        if (this.started) this.options.log('The read models’ thread is running again');
        this.started = true;
        this.settleStart?.resolve();
        return;
      case 'startFailed': {
        const error = revived(message.error);
        if (!this.started) {
          this.settleStart?.reject(error);
          void this.stop();
          return;
        }
        this.options.log('The restarted read models’ thread could not start; ending it', error);
        void this.worker?.terminate();
        return;
      }
      case 'stopped':
        this.onStopped?.();
        return;
      case 'status':
        this.requests.get(message.id)?.resolve(message.status);
        this.requests.delete(message.id);
        return;
      case 'reply': {
        const request = this.requests.get(message.id);
        this.requests.delete(message.id);
        if (message.error) request?.reject(revived(message.error));
        else request?.resolve(undefined);
        return;
      }
    }
  }

  private moved(name: string, position: number): void {
    this.positions.set(name, position);
    if (this.waiters.length === 0) return;
    const due = this.waiters.filter((w) => this.reached(w.position, w.names));
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) w.done();
  }

  private exited(worker: Worker, code: number): void {
    this.live.delete(worker);
    if (this.worker === worker) this.worker = undefined;
    for (const request of this.requests.values())
      request.reject(new Error(`The read models’ thread exited (code ${code})`));
    this.requests.clear();
    if (this.stopping) {
      this.onStopped?.();
      return;
    }
    if (!this.started) {
      this.settleStart?.reject(new Error(`The read models’ thread exited (code ${code})`));
      return;
    }
    const ms = this.options.restartMs ?? 1000;
    this.options.log(`The read models’ thread exited (code ${code}); restarting it in ${ms} ms`);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      this.spawn();
      this.post({ type: 'start', newsAfter: this.newsAfter });
    }, ms);
    this.restartTimer.unref();
  }
}
