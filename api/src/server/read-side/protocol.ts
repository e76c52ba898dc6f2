import type { LeaseOptions, ProjectionStatus, Write } from '@auction/projections';
import type { StoreConfig } from '../open-log';

/** What the projections' thread is started with (`workerData`): plain data only. */
export interface ThreadData {
  /** The stores to open, from the server's Config. */
  readonly stores: StoreConfig;
  /** In a cluster on the SQLite log: how often its subscriptions read the shared file. */
  readonly clusterLogPollMs?: number;
  /** A cluster: the projections are shared by their leases, as the in-process runner does. */
  readonly lease?: LeaseOptions;
}

/** A message from the request thread to the projections' thread. */
export type ToThread =
  /** Puts of documents at or before `newsAfter` are history, not news: not posted back. */
  | { readonly type: 'start'; readonly newsAfter: number }
  | { readonly type: 'stop' }
  /** An append committed (by this process, or another node): wake the subscriptions behind it. */
  | { readonly type: 'appended'; readonly position: number }
  /** Another node committed a checkpoint of a projection it holds. */
  | { readonly type: 'followed'; readonly name: string; readonly position: number }
  /** A read waits on these projections (with leases: followed ones are polled meanwhile). */
  | {
      readonly type: 'wait';
      readonly position: number;
      readonly names?: readonly string[];
      readonly ms: number;
    }
  | { readonly type: 'status'; readonly id: number }
  | { readonly type: 'rebuild'; readonly id: number; readonly names: readonly string[] }
  /** Test seam: an uncaught exception on the thread, or a batch that never ends. */
  | { readonly type: 'fault'; readonly fault: 'crash' | 'block' };

/** An error as it crosses the threads. */
export interface PostedError {
  readonly message: string;
  readonly stack?: string;
}

/** A message from the projections' thread to the request thread. */
export type FromThread =
  | { readonly type: 'started' }
  | { readonly type: 'startFailed'; readonly error: PostedError }
  | { readonly type: 'stopped' }
  | { readonly type: 'position'; readonly name: string; readonly position: number }
  | {
      readonly type: 'committed';
      readonly name: string;
      readonly writes: readonly Write[];
      readonly position: number;
      /** The thread that committed it (tests check it is not the request thread). */
      readonly threadId: number;
    }
  | { readonly type: 'error'; readonly name: string; readonly error: PostedError }
  | { readonly type: 'status'; readonly id: number; readonly status: ProjectionStatus[] }
  | { readonly type: 'reply'; readonly id: number; readonly error?: PostedError };

export const posted = (error: unknown): PostedError =>
  error instanceof Error
    ? { message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
    : { message: String(error) };

export const revived = (error: PostedError): Error =>
  Object.assign(new Error(error.message), error.stack ? { stack: error.stack } : {});
