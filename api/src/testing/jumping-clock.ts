import type { Clock } from '@auction/engine';

interface Timer {
  readonly at: number;
  readonly fn: () => void;
  readonly real: NodeJS.Timeout;
}

/**
 * The wall clock, moved forward on demand: a test skips the seconds it would otherwise wait, and
 * every timer that falls due on the way (the closing scheduler's, say) runs at once.
 */
export class JumpingClock implements Clock {
  private ahead = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return Date.now() + this.ahead;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer: Timer = {
      at: this.now() + ms,
      fn,
      real: setTimeout(() => {
        this.timers.delete(timer);
        fn();
      }, ms).unref(),
    };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    const timer = handle as Timer | undefined;
    if (timer === undefined) return;
    clearTimeout(timer.real);
    this.timers.delete(timer);
  }

  /** Moves the clock `ms` forward and runs, in order, the timers that are due by then. */
  jump(ms: number): void {
    this.ahead += ms;
    const due = [...this.timers].filter((t) => t.at <= this.now()).sort((a, b) => a.at - b.at);
    for (const timer of due) {
      this.clearTimeout(timer);
      timer.fn();
    }
  }
}
