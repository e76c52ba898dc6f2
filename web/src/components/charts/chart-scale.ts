/**
 * The arithmetic of the charts (`time-chart.tsx`): the extent of what is drawn, a linear scale
 * and round ticks. Pure, so it is tested without a browser.
 */

export interface Extent {
  readonly min: number;
  readonly max: number;
}

/**
 * The smallest extent holding every value (and `[0, 1]` when none); a single value is widened by
 * `widen` each way (default: a tenth of it, or 1).
 */
export const extentOf = (values: readonly number[], pad = 0, widen?: number): Extent => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { min: 0, max: 1 };
  let min = Math.min(...finite);
  let max = Math.max(...finite);
  if (min === max) {
    const by = widen ?? (Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1);
    min -= by;
    max += by;
  }
  const room = (max - min) * pad;
  return { min: min - room, max: max + room };
};

/** Maps `[extent.min, extent.max]` onto `[from, to]` (either way round). */
export const linearScale =
  (extent: Extent, from: number, to: number) =>
  (value: number): number =>
    from + ((value - extent.min) / (extent.max - extent.min)) * (to - from);

/** About `count` round values (1, 2 or 5 times a power of ten apart) inside `extent`. */
export const niceTicks = (extent: Extent, count = 5): number[] => {
  const span = extent.max - extent.min;
  if (!(span > 0) || count < 1) return [extent.min];
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (
    let tick = Math.ceil(extent.min / step) * step;
    tick <= extent.max + step * 1e-9;
    tick += step
  )
    ticks.push(Number(tick.toPrecision(12)));
  return ticks;
};

/** `count` evenly spaced times across `extent` (both ends included), for the time axis. */
export const timeTicks = (extent: Extent, count = 4): number[] => {
  if (!(extent.max > extent.min) || count < 2) return [extent.min];
  const step = (extent.max - extent.min) / (count - 1);
  return Array.from({ length: count }, (_, i) => extent.min + step * i);
};
