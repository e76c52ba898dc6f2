import { useId } from 'react';
import { extentOf, linearScale, niceTicks, timeTicks } from './chart-scale';
import './charts.css';

/**
 * A small chart of values over time in plain SVG, with its data as a table for screen readers
 * (and anyone who opens it): series of timed points (a line through each, each point drawn by
 * its kind), horizontal reference lines and vertical time markers. Generic: the auction page's
 * price history, the dashboard's summaries and the audit page draw with it.
 */

/** How a point is drawn: a dot, a diamond (e.g. automatic), a ring (e.g. retracted), a square. */
export type PointShape = 'dot' | 'diamond' | 'ring' | 'square';

export interface ChartPoint {
  /** Milliseconds since the epoch. */
  readonly t: number;
  readonly y: number;
  readonly shape?: PointShape;
  /** The table's text for this point (what happened). */
  readonly label: string;
  /** A stable key (an event's revision, an id). */
  readonly key: string;
}

export interface ChartSeries {
  readonly name: string;
  readonly points: readonly ChartPoint[];
  /** Draw the line as steps (a price holds until the next change), else straight segments. */
  readonly step?: boolean;
  /** A CSS colour class suffix: `brand` (default), `green`, `amber`, `grey`, `red`. */
  readonly tone?: string;
}

/** A horizontal line at a value (a reserve, a target). */
export interface ChartLine {
  readonly y: number;
  readonly label: string;
  readonly tone?: string;
}

/** A vertical line at a time (an end, an extension, a close). */
export interface ChartMarker {
  readonly t: number;
  readonly label: string;
  readonly tone?: string;
}

export interface TimeChartProps {
  /** The chart's accessible name and visible heading. */
  readonly title: string;
  readonly series: readonly ChartSeries[];
  readonly lines?: readonly ChartLine[];
  readonly markers?: readonly ChartMarker[];
  readonly formatValue: (value: number) => string;
  readonly formatTime: (time: number) => string;
  /** Says what the chart shows when there is nothing to draw. */
  readonly empty?: string;
  /** The time axis reaches at least to here (e.g. now, or the auction's end). */
  readonly until?: number;
  readonly width?: number;
  readonly height?: number;
  readonly className?: string;
}

/** A single moment is shown with an hour each side. */
const SINGLE_TIME_SPAN_MS = 3_600_000;

const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };
const SHAPE_LEGEND: Record<PointShape, string> = {
  dot: '●',
  diamond: '◆',
  ring: '○',
  square: '■',
};

const Shape = ({ shape, x, y }: { shape: PointShape; x: number; y: number }) => {
  switch (shape) {
    case 'diamond':
      return (
        <path
          className="chart-point"
          d={`M${x} ${y - 6}L${x + 6} ${y}L${x} ${y + 6}L${x - 6} ${y}Z`}
        />
      );
    case 'ring':
      return <circle className="chart-point chart-point-ring" cx={x} cy={y} r={5} />;
    case 'square':
      return <rect className="chart-point" x={x - 4.5} y={y - 4.5} width={9} height={9} />;
    case 'dot':
      return <circle className="chart-point" cx={x} cy={y} r={4.5} />;
  }
};

const pathOf = (points: readonly { x: number; y: number }[], step: boolean): string =>
  points
    .map((p, i) => {
      if (i === 0) return `M${p.x} ${p.y}`;
      return step ? `H${p.x}V${p.y}` : `L${p.x} ${p.y}`;
    })
    .join('');

export const TimeChart = ({
  title,
  series,
  lines = [],
  markers = [],
  formatValue,
  formatTime,
  empty = 'Nothing to show yet.',
  until,
  width = 800,
  height = 220,
  className,
}: TimeChartProps) => {
  const id = useId();
  const all = series.flatMap((s) => s.points);
  const times = [...all.map((p) => p.t), ...markers.map((m) => m.t)];
  if (until !== undefined && all.length > 0) times.push(until);
  const tExtent = extentOf(times, 0, SINGLE_TIME_SPAN_MS);
  const padded = extentOf([...all.map((p) => p.y), ...lines.map((l) => l.y)], 0.08);
  // Money never goes below 0: the padding does not either.
  const yExtent =
    padded.min < 0 && all.every((p) => p.y >= 0) ? { min: 0, max: padded.max } : padded;
  const x = linearScale(tExtent, MARGIN.left, width - MARGIN.right);
  const y = linearScale(yExtent, height - MARGIN.bottom, MARGIN.top);
  const shapes = [...new Set(all.map((p) => p.shape ?? 'dot'))];
  const rows = series
    .flatMap((s) => s.points.map((p) => ({ series: s.name, point: p })))
    .sort((a, b) => a.point.t - b.point.t);

  return (
    <figure className={`time-chart ${className ?? ''}`} aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="time-chart-title">
        {title}
      </figcaption>
      {all.length === 0 ? (
        <p className="time-chart-empty">{empty}</p>
      ) : (
        <>
          <svg
            className="time-chart-svg"
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`${title}: ${all.length} points, from ${formatValue(
              Math.min(...all.map((p) => p.y)),
            )} to ${formatValue(Math.max(...all.map((p) => p.y)))}. The table below lists them.`}
          >
            {niceTicks(yExtent, 4).map((tick) => (
              <g key={`y${tick}`} className="chart-grid">
                <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
                <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                  {formatValue(tick)}
                </text>
              </g>
            ))}
            {timeTicks(tExtent, 3).map((tick, i, ticks) => (
              <text
                key={`t${tick}`}
                className="chart-axis-time"
                x={x(tick)}
                y={height - 8}
                textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
              >
                {formatTime(tick)}
              </text>
            ))}
            {lines.map((line) => (
              <g key={`l${line.label}`} className={`chart-ref chart-tone-${line.tone ?? 'amber'}`}>
                <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(line.y)} y2={y(line.y)} />
                <text x={width - MARGIN.right} y={y(line.y) - 4} textAnchor="end">
                  {line.label}
                </text>
              </g>
            ))}
            {markers.map((marker) => (
              <g
                key={`m${marker.t}${marker.label}`}
                className={`chart-marker chart-tone-${marker.tone ?? 'grey'}`}
                data-marker={marker.label}
              >
                <line
                  x1={x(marker.t)}
                  x2={x(marker.t)}
                  y1={MARGIN.top}
                  y2={height - MARGIN.bottom}
                />
                <title>{`${marker.label}: ${formatTime(marker.t)}`}</title>
              </g>
            ))}
            {series.map((s) => {
              const placed = s.points.map((p) => ({ ...p, x: x(p.t), y: y(p.y) }));
              return (
                <g key={s.name} className={`chart-series chart-tone-${s.tone ?? 'brand'}`}>
                  <path className="chart-line" d={pathOf(placed, s.step === true)} />
                  {placed.map((p) => (
                    <g key={p.key} data-point={p.key} data-shape={p.shape ?? 'dot'}>
                      <Shape shape={p.shape ?? 'dot'} x={p.x} y={p.y} />
                      <title>{`${formatTime(p.t)}: ${p.label}`}</title>
                    </g>
                  ))}
                </g>
              );
            })}
          </svg>
          {(shapes.length > 1 || markers.length > 0 || lines.length > 0) && (
            <ul className="time-chart-legend" aria-hidden="true">
              {series.length > 1 &&
                series.map((s) => (
                  <li key={s.name} className={`chart-tone-${s.tone ?? 'brand'}`}>
                    — {s.name}
                  </li>
                ))}
              {lines.map((line) => (
                <li key={line.label} className={`chart-tone-${line.tone ?? 'amber'}`}>
                  ┄ {line.label}
                </li>
              ))}
              {[...new Set(markers.map((m) => m.label))].map((label) => (
                <li key={label}>│ {label}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <details className="time-chart-table">
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {series.length > 1 && <th scope="col">Series</th>}
              <th scope="col">Value</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ series: name, point }) => (
              <tr key={`${name}${point.key}`}>
                <td>{formatTime(point.t)}</td>
                {series.length > 1 && <td>{name}</td>}
                <td>{formatValue(point.y)}</td>
                <td>
                  {point.shape && point.shape !== 'dot' ? `${SHAPE_LEGEND[point.shape]} ` : ''}
                  {point.label}
                </td>
              </tr>
            ))}
            {markers.map((marker) => (
              <tr key={`m${marker.t}${marker.label}`}>
                <td>{formatTime(marker.t)}</td>
                {series.length > 1 && <td />}
                <td />
                <td>{marker.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};
