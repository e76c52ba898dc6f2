import type { Schedulers } from './background';
import type { Serving } from './http-server';
import type { Stores } from './open-stores';
import type { ReadSide } from './read-side/read-models';
import type { WriteSide } from './write-side';

type Log = (message: string, error?: unknown) => void;

/** What a running server stops, in the order `shutDown` stops it. */
export interface ServerParts {
  readonly stores: Stores;
  readonly write: WriteSide;
  readonly read: ReadSide;
  readonly http: Serving;
  readonly schedulers: Schedulers;
  readonly cancelledImages: { close(): Promise<void> };
}

/**
 * Stops taking requests, drains the commands in flight, stops the background work and closes the
 * stores, all under one deadline `timeoutMs` from now (see `Step`); logs what was cut short.
 */
export const shutDown = async (parts: ServerParts, timeoutMs: number, log: Log): Promise<void> => {
  const step = deadlineSteps(timeoutMs, log);
  try {
    await closeInOrder(parts, step);
  } finally {
    step.report();
  }
};

const closeInOrder = async (parts: ServerParts, step: Step): Promise<void> => {
  const { stores, write, read, http, schedulers } = parts;
  const { server } = http;
  read.readiness.stop();
  http.sessions.stop();
  write.stopTelling?.();
  read.stopForwarding?.();
  write.positions?.close();
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Commands being appended are never cut: each is answered after its commit, or not at all.
  await step('account closures', () => write.closures.stop(), { mustFinish: true });
  await step('commands in flight', () => write.engine.close(), { mustFinish: true });
  await step('realtime connections', () => http.gateway.close());
  await step('HTTP requests in flight', () => stopped);
  if (step.expired()) server.closeAllConnections();
  await step('closing scheduler', () => schedulers.closing.stop());
  await step('ending-soon scheduler', () => schedulers.endingSoon.stop());
  await step('image clean-up', () => parts.cancelledImages.close());
  // The read side is safe to cut: its batch is not committed, and replays from its checkpoint.
  await step('the read models', () => read.runner.stop());
  await step('stores', () => stores.close(), { graceMs: 1000 });
};

interface Step {
  /**
   * Starts `work` and waits for it until the deadline; past it, only a step that must finish is
   * waited for, any other only `graceMs` (default 0: it runs on unwatched).
   */
  (
    name: string,
    work: () => Promise<unknown>,
    options?: { mustFinish?: boolean; graceMs?: number },
  ): Promise<void>;
  /** Whether the deadline has passed. */
  expired(): boolean;
  /** Logs what was cut short, if anything. */
  report(): void;
}

/**
 * The steps of a shutdown under one deadline, `timeoutMs` from now. A step's failure fails the
 * shutdown; a step cut short is named in the report.
 */
const deadlineSteps = (timeoutMs: number, log: Log): Step => {
  const started = Date.now();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve();
    }, timeoutMs);
  });
  const cut: string[] = [];
  const within = (work: Promise<unknown>, ms: number): Promise<boolean> =>
    new Promise<boolean>((resolve, reject) => {
      const grace = setTimeout(() => resolve(false), ms);
      work.then(
        () => (clearTimeout(grace), resolve(true)),
        (error: unknown) => (clearTimeout(grace), reject(error as Error)),
      );
    });
  const step = async (
    name: string,
    work: () => Promise<unknown>,
    options: { mustFinish?: boolean; graceMs?: number } = {},
  ): Promise<void> => {
    const running = work();
    if (options.mustFinish) {
      if (!timedOut && (await Promise.race([running.then(() => true), deadline.then(() => false)])))
        return;
      log(`Shutdown: past SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms); still waiting for ${name}`);
      await running;
      return;
    }
    const finished = timedOut
      ? await within(running, options.graceMs ?? 0)
      : await Promise.race([running.then(() => true), deadline.then(() => false)]);
    if (finished) return;
    cut.push(name);
    running.catch((error: unknown) => log(`Shutdown: ${name}, cut short, then failed`, error));
  };
  return Object.assign(step, {
    expired: () => timedOut,
    report: () => {
      clearTimeout(timer);
      if (cut.length === 0) return;
      log(
        `Shutdown cut short after ${Date.now() - started} ms (SHUTDOWN_TIMEOUT_MS=${timeoutMs}): ` +
          `did not wait for ${cut.join(', ')}. Nothing acknowledged is lost: the read models ` +
          'resume from their checkpoints at the next start.',
      );
    },
  });
};
