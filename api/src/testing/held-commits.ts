import type { ReadStore } from '@auction/projections';

/**
 * A `projectionStore` seam (`StartOptions`) whose commits first wait for what `hold` returns for
 * the committing projection: a test holds one read model behind the log while the server runs.
 */
export const heldCommits =
  (hold: (projection: string) => Promise<void> | undefined) =>
  (store: ReadStore): ReadStore =>
    new Proxy(store, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property !== 'commit' || typeof value !== 'function') return value;
        return async (...args: Parameters<ReadStore['commit']>) => {
          await hold(args[0]);
          return target.commit(...args);
        };
      },
    });

/** A gate a test closes and opens: `promise` while closed, undefined while open. */
export class Gate {
  private closed: { promise: Promise<void>; open: () => void } | undefined;
  get promise(): Promise<void> | undefined {
    return this.closed?.promise;
  }
  close(): void {
    if (this.closed) return;
    let open = () => undefined as void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.closed = { promise, open };
  }
  open(): void {
    this.closed?.open();
    this.closed = undefined;
  }
}
