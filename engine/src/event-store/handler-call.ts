/**
 * Tells a subscription whether its own handler is the one calling it: set while the handler's
 * synchronous part runs. A handler that closes its own subscription there gets a `close()` that
 * does not wait for the delivery it is part of. (An async context would also see calls after the
 * handler's first await, but `AsyncLocalStorage` puts a hook on every promise of the process.)
 */
export class HandlerCall {
  private running = false;

  /** Calls `handler`, marking its synchronous part. */
  run<T>(handler: () => T): T {
    this.running = true;
    try {
      return handler();
    } finally {
      this.running = false;
    }
  }

  /** Whether the caller is the handler's synchronous part. */
  get inHandler(): boolean {
    return this.running;
  }
}
