/**
 * A subscription's `caughtUp`: settles once, either when history has been delivered or when the
 * subscription stops first. A rejection nobody awaits is not reported as unhandled.
 */
export class CaughtUp {
  readonly promise: Promise<void>;
  private settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.promise.catch(() => undefined);
  }

  resolve(): void {
    this.settle?.resolve();
  }

  reject(error: unknown): void {
    this.settle?.reject(error);
  }

  /** Rejects if still pending because the subscription stopped. */
  stopped(): void {
    this.reject(new Error('The subscription was closed before it caught up'));
  }
}
