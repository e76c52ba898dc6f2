import type { AuditStep } from '@auction/contracts';
import { type ChartMarker, type ChartSeries, TimeChart } from '../../components/charts/time-chart';
import { formatMoney } from '../../lib/format';
import { type Users, formatMs, userName } from './audit-words';

const TONES = ['green', 'amber', 'red', 'grey'];

const timeOf = (step: AuditStep): number => (step.at ? Date.parse(step.at) : Number.NaN);

/**
 * Price over time (automatic bids as diamonds, retractions as rings) and, for the auditor, each
 * bidder's maximum as it was set; the reserve as a line; the chosen event and the end as markers.
 */
export const AuditChart = ({
  steps,
  users,
  chosen,
}: {
  steps: readonly AuditStep[];
  users: Users;
  chosen: number;
}) => {
  const timed = steps.filter((step) => Number.isFinite(timeOf(step)));
  const price: ChartSeries = {
    name: 'Current bid',
    step: true,
    points: timed
      .filter((step, i) => i === 0 || step.changes.some((c) => c.field === 'price'))
      .map((step) => ({
        t: timeOf(step),
        y: step.price,
        key: `p${step.revision}`,
        shape:
          step.type === 'AutomaticBidPlaced'
            ? 'diamond'
            : step.type === 'BidRetracted'
              ? 'ring'
              : 'dot',
        label: `#${step.revision} current bid ${formatMoney(step.price)}`,
      })),
  };
  const maxima = new Map<string, ChartSeries['points'][number][]>();
  let reserve: number | null = null;
  let endsAt: string | null = null;
  for (const step of timed) {
    for (const change of step.changes) {
      if (change.field === 'reservePrice')
        reserve = typeof change.after === 'number' ? change.after : null;
      if (change.field === 'endsAt')
        endsAt = typeof change.after === 'string' ? change.after : null;
      if (change.field !== 'maximum' || change.bidder === null || typeof change.after !== 'number')
        continue;
      const points = maxima.get(change.bidder) ?? [];
      points.push({
        t: timeOf(step),
        y: change.after,
        key: `m${step.revision}`,
        shape: 'square',
        label: `#${step.revision} ${userName(users, change.bidder)}'s maximum ${formatMoney(change.after)}`,
      });
      maxima.set(change.bidder, points);
    }
  }
  const series: ChartSeries[] = [
    price,
    ...[...maxima].map(([bidder, points], i) => ({
      name: `${userName(users, bidder)}'s maximum`,
      points,
      step: true,
      tone: TONES[i % TONES.length],
    })),
  ];
  const chosenStep = steps[chosen];
  const markers: ChartMarker[] = [];
  if (chosenStep && Number.isFinite(timeOf(chosenStep)))
    markers.push({ t: timeOf(chosenStep), label: `Revision ${chosen}`, tone: 'brand' });
  const last = timed[timed.length - 1];
  const endMs = endsAt ? Date.parse(endsAt) : Number.NaN;
  // The end only when it is near the bids, else it would squeeze them into one corner.
  if (last && Number.isFinite(endMs) && endMs <= timeOf(last))
    markers.push({ t: endMs, label: 'End' });
  return (
    <section className="card audit-chart" aria-label="Price and maxima over time">
      <TimeChart
        title={maxima.size > 0 ? 'Price and maxima over time' : 'Price over time'}
        series={series}
        lines={reserve === null ? [] : [{ y: reserve, label: `Reserve ${formatMoney(reserve)}` }]}
        markers={markers}
        formatValue={formatMoney}
        formatTime={(t) => formatMs(new Date(t).toISOString())}
        empty="No events to draw."
      />
    </section>
  );
};
